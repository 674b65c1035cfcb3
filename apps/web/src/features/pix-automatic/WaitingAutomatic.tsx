import { Alert, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { PixAutomaticAuthorization } from '@portal/contract';
import { pixAutomaticMessages } from '@portal/domain';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { DateTime } from '../../components/ui/DateTime';
import { PixPayload } from '../../components/ui/PixPayload';
import { NewAutomaticForm } from './NewAutomaticForm';
import { AutomaticSummary, CancelAutomaticButton } from './parts';

const texts = {
  waiting: 'Aguardando o pagamento do primeiro Pix no seu banco',
  until: 'O QR Code vale até',
  newTitle: 'Outro valor ou frequência?',
  newHint: 'Um novo QR Code substitui este, que deixa de valer.',
} as const;

/**
 * The authorization waits for its first Pix: the QR Code (copia e cola, image) whose payment both
 * credits the balance and authorizes the recurring debits; it turns to 'Ativa' by itself.
 */
export function WaitingAutomatic({ authorization }: { authorization: PixAutomaticAuthorization }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The QR Code just appeared in place of the form: move the reader there.
  useEffect(() => {
    headingRef.current?.focus();
  }, [authorization.id]);

  return (
    <>
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={2} ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
              {pixAutomaticMessages.qrTitle}
            </Title>
            <Text>{pixAutomaticMessages.qrHelp}</Text>
          </Stack>
          <AutomaticSummary authorization={authorization} />
          {authorization.qrCode ? (
            <>
              <PixPayload payload={authorization.qrCode.payload} />
              <Text size="sm" c="dark.7" ta="center">
                {texts.until} <DateTime value={authorization.qrCode.expiraEm} />
              </Text>
            </>
          ) : null}
          <Group gap="xs" wrap="nowrap" role="status" aria-live="polite">
            <Loader size="xs" aria-hidden />
            <Text size="sm">{texts.waiting}</Text>
          </Group>
          <Alert color="yellow" variant="light" icon={<IconInfoCircle aria-hidden />}>
            <Text size="sm" c="dark.7">
              {pixAutomaticMessages.free}
            </Text>
          </Alert>
          <CancelAutomaticButton authorization={authorization} />
        </Stack>
      </Paper>
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg" component="section" aria-labelledby="novo-qr">
        <Stack gap="sm">
          <Title order={2} size="h4" id="novo-qr">
            {texts.newTitle}
          </Title>
          <Text size="sm" c="dark.7">
            {texts.newHint}
          </Text>
          <NewAutomaticForm />
        </Stack>
      </Paper>
    </>
  );
}
