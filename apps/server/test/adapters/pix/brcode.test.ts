import { describe, expect, it } from 'vitest';
import { LocalPixProvider, toTxid } from '../../../src/adapters/pix/local.js';
import { createPixProvider } from '../../../src/adapters/pix/index.js';
import { AsaasPixProvider } from '../../../src/adapters/pix/asaas.js';
import { loadConfig } from '../../../src/config.js';

/** EMV "TLV" walk written from the BR Code manual: 2-digit id, 2-digit length, value. */
function tlv(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const len = Number(text.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(len) || i + 4 + len > text.length) throw new Error(`TLV inválido na posição ${i}`);
    fields.set(id, text.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return fields;
}

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF), as the BR Code manual prescribes for field 63. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

describe('BR Code do provedor local', () => {
  const provider = new LocalPixProvider({
    receiverKey: 'pix@portaldomotorista.com.br',
    merchantName: 'PORTAL DO MOTORISTA',
    merchantCity: 'SAO PAULO',
  });

  it('the CRC16 of the parser matches the manual check value', () => {
    expect(crc16('123456789')).toBe('29B1');
  });

  it('parses back: CRC, GUI, key, amount, txid, currency, country, name, city', async () => {
    for (const [cents, amount] of [
      [15_000, '150.00'],
      [10_001, '100.01'],
      [5_000_000, '50000.00'],
    ] as const) {
      const chargeId = 'chg_0123456789abcdef0123';
      const { payload, providerChargeId, encodedImage } = await provider.createCharge({
        chargeId,
        amountCents: cents,
        driver: { name: 'Maria', cpfCnpj: '52998224725' },
        expiresAt: new Date(),
      });
      expect(providerChargeId).toBe(`local_${chargeId}`);
      expect(encodedImage).toBeNull();
      const top = tlv(payload);
      expect(top.get('00')).toBe('01');
      expect(payload.slice(-8, -4)).toBe('6304');
      expect(top.get('63')).toBe(crc16(payload.slice(0, -4)));
      const account = tlv(top.get('26') ?? '');
      expect(account.get('00')?.toLowerCase()).toBe('br.gov.bcb.pix');
      expect(account.get('01')).toBe('pix@portaldomotorista.com.br');
      expect(top.get('52')).toBe('0000');
      expect(top.get('53')).toBe('986');
      expect(top.get('54')).toBe(amount);
      expect(top.get('58')).toBe('BR');
      expect(top.get('59')).toBe('PORTAL DO MOTORISTA');
      expect(top.get('60')).toBe('SAO PAULO');
      expect(tlv(top.get('62') ?? '').get('05')).toBe('chg0123456789abcdef0123');
    }
  });

  it('a tampered payload fails the CRC', async () => {
    const { payload } = await provider.createCharge({
      chargeId: 'chg_aa',
      amountCents: 15_000,
      driver: { name: 'M', cpfCnpj: '1' },
      expiresAt: new Date(),
    });
    const tampered = payload.replace('150.00', '950.00');
    expect(tlv(tampered).get('63')).not.toBe(crc16(tampered.slice(0, -4)));
  });

  it('txid is letters and digits, at most 25', () => {
    expect(toTxid('chg_0123456789abcdef0123')).toBe('chg0123456789abcdef0123');
    expect(toTxid('a-b_c'.repeat(10))).toMatch(/^[A-Za-z0-9]{1,25}$/);
  });

  it('payouts complete at once, with no holder reported (no bank behind it)', async () => {
    expect(await provider.sendPayout({ withdrawalId: 'wd_1', amountCents: 1, key: 'k', keyType: 'EVP', description: 'd' })).toEqual({
      status: 'DONE',
      providerTransferId: 'local_wd_1',
      receiver: null,
    });
  });

  it('PIX_PROVIDER chooses the adapter', () => {
    expect(createPixProvider(loadConfig({}).pix)).toBeInstanceOf(LocalPixProvider);
    const asaas = loadConfig({ PIX_PROVIDER: 'asaas', ASAAS_API_URL: 'https://api-sandbox.asaas.com', ASAAS_API_KEY: 'k' }).pix;
    expect(createPixProvider(asaas)).toBeInstanceOf(AsaasPixProvider);
  });
});
