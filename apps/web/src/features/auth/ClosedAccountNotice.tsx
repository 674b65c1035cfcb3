import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { formatDateTime } from '@portal/domain';
import { IconCircleCheck, IconFileDownload } from '@tabler/icons-react';
import { useSyncExternalStore } from 'react';
import { closedAccountReceipt, closedAccountSnapshot } from '../../lib/closedAccount';
import { readableAlert } from '../../components/ui/readableAlert';
import { API_BASE_URL } from '../../lib/http';

/** Decision 70: on /login right after closing the account in this tab: it was closed, and its receipt while the link works. */
export function ClosedAccountNotice() {
  // The page is prerendered without it (decision 12): hydration reads null, then the tab's storage.
  const stored = useSyncExternalStore(noSubscription, closedAccountSnapshot, () => null);
  const receipt = closedAccountReceipt(stored);
  if (!receipt) return null;
  const until = formatDateTime(receipt.expiresAt).slice(11, 16);
  return (
    <Alert color="teal" icon={<IconCircleCheck aria-hidden />} title="Sua conta foi encerrada" role="status" styles={readableAlert}>
      <Stack gap="xs">
        <Text size="sm">Todas as sessões foram encerradas. Guarde o comprovante do que foi apagado e do que foi guardado.</Text>
        <Anchor
          href={`${API_BASE_URL}${receipt.url}`}
          download
          fw={600}
          size="sm"
          style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}
        >
          <IconFileDownload size={18} aria-hidden />
          Baixar o comprovante de encerramento (PDF)
        </Anchor>
        <Text size="xs" c="gray.7">
          O link vale até as {until}.
        </Text>
      </Stack>
    </Alert>
  );
}

/** The tab's storage changes only when this tab closes an account, before it navigates here. */
function noSubscription(): () => void {
  return () => undefined;
}
