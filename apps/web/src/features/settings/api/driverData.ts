import { api } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '../../../lib/api';

/** GET /api/motorista/dados/exportar: everything the portal holds about the driver, saved as the server names it. */
export function useDriverDataExport() {
  return useMutation({
    // Offline the button is disabled; a connection lost on the way fails at once instead of waiting.
    networkMode: 'always',
    mutationFn: () => downloadFile(api.driverDataExport, { fallbackName: 'meus-dados.zip' }),
  });
}
