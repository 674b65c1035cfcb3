import { Button, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { driverDataMessages } from '@portal/domain';
import { IconFileZip } from '@tabler/icons-react';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/errors';
import { isApiError } from '../../lib/http';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { useDriverDataExport } from './api/driverData';

const T = driverDataMessages.section;

/** Issue 35 (LGPD art. 18, II and V): 'Meus dados', one tap for everything the portal holds about the driver. */
export function DriverDataSection() {
  const online = useOnline();
  const exporter = useDriverDataExport();

  const run = () =>
    exporter.mutate(undefined, {
      onSuccess: (fileName) => toast.success(T.downloaded(fileName), { title: SUCCESS_TOAST_TITLE }),
      onError: (error) => {
        // A 401 is already on its way to /login.
        if (isApiError(error) && error.isUnauthorized) return;
        toast.error(errorMessage(error), { title: ERROR_TOAST_TITLE });
      },
    });

  return (
    <Paper component="section" aria-labelledby="meus-dados" withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h3" id="meus-dados">
          {T.heading}
        </Title>
        <Text>{T.text}</Text>
        <Text size="sm" c="gray.7">
          {T.format} {T.limit}
        </Text>
        <Button
          size="md"
          leftSection={<IconFileZip size={22} aria-hidden />}
          loading={exporter.isPending}
          disabled={!online}
          aria-describedby={online ? undefined : OFFLINE_REASON_ID}
          onClick={run}
        >
          {T.button}
        </Button>
        <VisuallyHidden role="status" aria-live="polite">
          {exporter.isPending ? T.preparing : ''}
        </VisuallyHidden>
      </Stack>
    </Paper>
  );
}
