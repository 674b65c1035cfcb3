/**
 * With no connection (founding architecture §22) the screens show what was last seen, with its date, and the
 * actions that need the network are disabled with OFFLINE_REASON rather than failing.
 */
import { formatDateTime } from '@portal/domain';
import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

/** Why an action is disabled while offline (a form's notice). */
export const OFFLINE_REASON = 'Sem conexão: tente quando o sinal voltar';

/** The same on a screen that shows kept data. */
export const OFFLINE_ACTIONS_DISABLED = 'As ações que precisam de internet estão desativadas: tente quando o sinal voltar.';

/** The element that says OFFLINE_REASON (OfflineNotice): the disabled buttons point at it. */
export const OFFLINE_REASON_ID = 'motivo-sem-conexao';

/** 'Sem conexão — dados de DD/MM/YYYY HH:mm' (São Paulo), the time the data was fetched. */
export function offlineDataLine(updatedAt: number): string {
  return `Sem conexão — dados de ${formatDateTime(new Date(updatedAt)).slice(0, 16)}`;
}

const subscribe = (onChange: () => void) => onlineManager.subscribe(onChange);
const isOnline = () => onlineManager.isOnline();

/** Whether the phone has a connection now (TanStack's onlineManager, fed by the browser). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}
