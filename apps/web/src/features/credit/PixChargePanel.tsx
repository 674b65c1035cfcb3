import { Alert, Button, Code, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { ChargeStatus, PixCharge } from '@portal/contract';
import { messages } from '@portal/domain';
import { IconAlertTriangle, IconCircleCheck, IconHome, IconInfoCircle, IconReceipt, IconRefresh, IconTerminal2 } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Money } from '../../components/ui/Money';
import { balanceQueryKey } from '../../lib/balance';
import { errorMessage } from '../../lib/errors';
import { isClientError } from '../../lib/http';
import { RECEIPT_LINK_LABEL, receiptPath } from '../../lib/receipts';
import { pixChargeQuery } from './api/credit';
import { PixPayload } from '../../components/ui/PixPayload';

const PIX_WARNING = 'O Pix pode demorar até alguns minutos para ser validado e receber seu saldo.';

export interface PixChargePanelProps {
  charge: PixCharge;
  onNewPix: () => void;
}

/**
 * spec §2 /saldo/comprar after 'Comprar': the Pix to pay (QR image, copia e cola, copy button,
 * warning), which turns by itself into 'Pagamento recebido!' when the webhook settles it.
 */
export function PixChargePanel({ charge, onNewPix }: PixChargePanelProps) {
  const queryClient = useQueryClient();
  const { data, error, isError } = useQuery(pixChargeQuery(charge.id));
  const status: ChargeStatus = data?.qrCode.status ?? charge.status;
  const lost = isError && isClientError(error) ? error : null;

  useEffect(() => {
    if (status === 'RECEIVED') void queryClient.invalidateQueries({ queryKey: balanceQueryKey });
  }, [status, queryClient]);

  const newPixButton = (
    <Button variant="outline" fullWidth onClick={onNewPix} leftSection={<IconRefresh size={20} aria-hidden />}>
      Gerar novo Pix
    </Button>
  );

  if (status === 'RECEIVED') {
    return (
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
        <Stack gap="md">
          <Alert
            color="sign"
            variant="light"
            role="status"
            icon={<IconCircleCheck aria-hidden />}
            title={messages.pix.chargeStatus.RECEIVED}
            styles={{ title: { fontSize: 'var(--mantine-font-size-lg)' } }}
          >
            <Text>
              Valor creditado: <Money reais={charge.valor} fw={700} />
            </Text>
          </Alert>
          <Button component={Link} to="/dashboard" fullWidth leftSection={<IconHome size={20} aria-hidden />}>
            Ver meu saldo no painel
          </Button>
          <Button
            component={Link}
            to={receiptPath('compra', charge.id)}
            variant="light"
            fullWidth
            leftSection={<IconReceipt size={20} aria-hidden />}
          >
            {RECEIPT_LINK_LABEL}
          </Button>
          {newPixButton}
        </Stack>
      </Paper>
    );
  }

  if (status === 'OVERDUE' || status === 'REFUNDED' || lost) {
    return (
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
        <Stack gap="md">
          <Alert
            color={status === 'REFUNDED' || lost ? 'red' : 'yellow'}
            variant="light"
            role="alert"
            icon={<IconAlertTriangle aria-hidden />}
          >
            <Text fw={600}>{lost ? errorMessage(lost) : messages.pix.chargeStatus[status]}</Text>
            <Text size="sm" mt={4}>
              Valor do Pix: <Money reais={charge.valor} />
            </Text>
          </Alert>
          {newPixButton}
        </Stack>
      </Paper>
    );
  }

  return <PendingCharge charge={charge} newPixButton={newPixButton} />;
}

function PendingCharge({ charge, newPixButton }: { charge: PixCharge; newPixButton: ReactNode }) {
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The Pix just appeared in place of the form: move the reader there.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
      <Stack gap="md">
        <Stack gap={4}>
          <Group gap="xs" wrap="nowrap" align="center">
            <IconCircleCheck size={28} color="var(--mantine-color-sign-8)" aria-hidden style={{ flexShrink: 0 }} />
            <Title order={2} ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
              Pix gerado com sucesso!
            </Title>
          </Group>
          <Text>Copie o código abaixo para fazer o pagamento.</Text>
        </Stack>

        <Stack gap={0}>
          <Text size="sm" c="dimmed" fw={600}>
            Valor a pagar
          </Text>
          <Money reais={charge.valor} fz="calc(2rem * var(--mantine-scale))" fw={700} lh={1.2} />
        </Stack>

        <PixPayload payload={charge.payload} />

        <Group gap="xs" wrap="nowrap" role="status" aria-live="polite">
          <Loader size="xs" aria-hidden />
          <Text size="sm">{messages.pix.chargeStatus.PENDING}</Text>
        </Group>

        <Alert color="yellow" variant="light" icon={<IconInfoCircle aria-hidden />}>
          <Text size="sm" c="dark.7">
            {PIX_WARNING}
          </Text>
        </Alert>

        {charge.pagarNoTerminal ? <PayInTerminal command={charge.pagarNoTerminal} /> : null}

        {newPixButton}
      </Stack>
    </Paper>
  );
}

/** Decision 61: only a development server sends the command; production shows nothing here. */
function PayInTerminal({ command }: { command: string }) {
  const texts = messages.pix.payInTerminal;
  return (
    <Alert color="gray" variant="light" icon={<IconTerminal2 aria-hidden />} title={texts.title}>
      <Text size="sm" c="dark.7">
        {texts.text}
      </Text>
      <Code block mt="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {command}
      </Code>
    </Alert>
  );
}
