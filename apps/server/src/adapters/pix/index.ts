import type { PixConfig } from '../../config.js';
import { AsaasPixProvider } from './asaas.js';
import { LocalPixProvider } from './local.js';
import type { PixProvider } from './port.js';

export type { PixProvider } from './port.js';

/** PIX_PROVIDER=local (default) or asaas (ASAAS_API_URL and ASAAS_API_KEY, checked by the config). */
export function createPixProvider(config: PixConfig): PixProvider {
  if (config.provider === 'asaas') {
    if (!config.asaas) throw new Error('PIX_PROVIDER=asaas exige ASAAS_API_URL e ASAAS_API_KEY');
    return new AsaasPixProvider(config.asaas);
  }
  return new LocalPixProvider(config);
}
