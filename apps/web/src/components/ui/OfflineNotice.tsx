import { Alert, Text } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { OFFLINE_ACTIONS_DISABLED, OFFLINE_REASON, OFFLINE_REASON_ID, offlineDataLine, useOnline } from '../../lib/offline';
import { readableAlert } from './readableAlert';

interface OfflineNoticeProps {
  /**
   * When the data on screen was fetched (a query's dataUpdatedAt; 0 when there is none). Leave it
   * out on a screen that shows no kept data (a form).
   */
  updatedAt?: number;
  /** The screen has actions that need the network: say why they are disabled. */
  actions?: boolean;
}

function texts(updatedAt: number | undefined, actions: boolean): { title: string; body: string } {
  if (updatedAt === undefined) return { title: OFFLINE_REASON, body: 'Nada foi enviado. O botão volta a funcionar quando o sinal voltar.' };
  const seen = updatedAt > 0 ? 'Estes são os últimos dados vistos neste aparelho. ' : '';
  const title = updatedAt > 0 ? offlineDataLine(updatedAt) : 'Sem conexão — estes dados ainda não foram carregados neste aparelho';
  return { title, body: `${seen}${actions ? OFFLINE_ACTIONS_DISABLED : 'Eles se atualizam sozinhos quando o sinal voltar.'}` };
}

/**
 * Nothing while online. Offline: 'Sem conexão — dados de DD/MM/YYYY HH:mm' (what was last seen and
 * when) and, where the screen has actions, why they are disabled; on a form, OFFLINE_REASON. One per
 * screen: the disabled buttons point at its reason (OFFLINE_REASON_ID).
 */
export function OfflineNotice({ updatedAt, actions = true }: OfflineNoticeProps) {
  const online = useOnline();
  if (online) return null;
  const { title, body } = texts(updatedAt, actions);
  return (
    <Alert
      role="status"
      color="yellow"
      variant="light"
      radius="md"
      icon={<IconWifiOff aria-hidden />}
      title={title}
      styles={readableAlert}
      data-testid="aviso-sem-conexao"
    >
      <Text size="sm" c="dark.7" id={actions ? OFFLINE_REASON_ID : undefined}>
        {body}
      </Text>
    </Alert>
  );
}
