import { serverMessages } from '@portal/domain';
import { z } from 'zod';
import { AsaasClient, AsaasRequestError } from './asaas-client.js';
import type { AsaasClientConfig } from './asaas-client.js';
import type {
  ChargeRequest,
  CreatedCharge,
  PayoutRequest,
  PayoutResult,
  PixProvider,
  ProviderPayment,
  ProviderTransfer,
  TransferReceiver,
} from './port.js';
import { PayoutRejected } from './port.js';

const customerList = z.object({ data: z.array(z.object({ id: z.string() })) });
const withId = z.object({ id: z.string() });
const pixQrCode = z.object({ encodedImage: z.string().nullish(), payload: z.string().min(1) });
const transfer = z.object({
  id: z.string(),
  status: z.string(),
  failReason: z.string().nullish(),
  externalReference: z.string().nullish(),
  value: z.number().nullish(),
  operationType: z.string().nullish(),
  // The key and its account's holder, once resolved (OpenAPI TransferBankAccountGetResponse).
  bankAccount: z.object({ ownerName: z.string().nullish(), cpfCnpj: z.string().nullish(), pixAddressKey: z.string().nullish() }).nullish(),
});
const payment = z.object({
  id: z.string(),
  status: z.string(),
  value: z.number(),
  deleted: z.boolean().nullish(),
  externalReference: z.string().nullish(),
  // null (not []) when nothing was refunded.
  refunds: z.array(z.object({ status: z.string(), value: z.number() })).nullish(),
});
const deletedPayment = z.object({ deleted: z.boolean(), id: z.string() });

const cents = (reais: number) => Math.round(reais * 100);

function receiverOf(t: z.output<typeof transfer>): TransferReceiver | null {
  const name = t.bankAccount?.ownerName?.trim() || null;
  const document = t.bankAccount?.cpfCnpj?.trim() || null;
  return name || document ? { name, document } : null;
}

/** YYYY-MM-DD in São Paulo: Asaas's dueDate is a calendar day there. */
export function saoPauloDate(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(date);
}

/** Asaas API v3 (founding architecture §5): customer by cpfCnpj, PIX payment and its QR code, transfers to Pix keys. */
export class AsaasPixProvider implements PixProvider {
  readonly name = 'asaas' as const;
  private readonly client: AsaasClient;

  constructor(config: AsaasClientConfig, fetchImpl?: typeof fetch) {
    this.client = new AsaasClient(config, fetchImpl);
  }

  async createCharge(request: ChargeRequest): Promise<CreatedCharge> {
    const customer = await this.customerId(request.driver);
    const payment = await this.client.request('POST', '/v3/payments', withId, {
      customer,
      billingType: 'PIX',
      value: request.amountCents / 100,
      dueDate: saoPauloDate(request.expiresAt),
      externalReference: request.chargeId,
      description: serverMessages.pix.chargeDescription,
    });
    const qr = await this.client.request('GET', `/v3/payments/${encodeURIComponent(payment.id)}/pixQrCode`, pixQrCode);
    return { providerChargeId: payment.id, payload: qr.payload, encodedImage: qr.encodedImage ?? null, expiresAt: request.expiresAt };
  }

  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    let result: z.output<typeof transfer>;
    try {
      result = await this.client.request('POST', '/v3/transfers', transfer, {
        value: request.amountCents / 100,
        operationType: 'PIX',
        pixAddressKey: request.key,
        pixAddressKeyType: request.keyType,
        description: request.description,
        externalReference: request.withdrawalId,
      });
    } catch (error) {
      if (error instanceof AsaasRequestError) throw new PayoutRejected(error.message);
      throw error;
    }
    if (result.status === 'FAILED' || result.status === 'CANCELLED') {
      throw new PayoutRejected(result.failReason ?? serverMessages.withdrawal.payoutRejected, result.id);
    }
    return { status: result.status === 'DONE' ? 'DONE' : 'PENDING', providerTransferId: result.id, receiver: receiverOf(result) };
  }

  async getPayment(providerChargeId: string): Promise<ProviderPayment | 'missing'> {
    const found = await this.orMissing(() => this.client.request('GET', `/v3/payments/${encodeURIComponent(providerChargeId)}`, payment));
    if (found === 'missing') return found;
    const amountCents = cents(found.value);
    const refunded = (found.refunds ?? []).filter((r) => r.status === 'DONE').reduce((sum, r) => sum + cents(r.value), 0);
    return {
      status: found.status,
      amountCents,
      // A REFUNDED payment without its refunds listed was given back whole.
      refundedCents: found.status === 'REFUNDED' && refunded === 0 ? amountCents : refunded,
      deleted: found.deleted === true,
      externalReference: found.externalReference ?? null,
    };
  }

  async getTransfer(providerTransferId: string): Promise<ProviderTransfer | 'missing'> {
    const found = await this.orMissing(() =>
      this.client.request('GET', `/v3/transfers/${encodeURIComponent(providerTransferId)}`, transfer),
    );
    if (found === 'missing') return found;
    return {
      status: found.status,
      failReason: found.failReason ?? null,
      externalReference: found.externalReference ?? null,
      amountCents: found.value === null || found.value === undefined ? null : cents(found.value),
      pixKey: found.bankAccount?.pixAddressKey ?? null,
      operationType: found.operationType ?? null,
      receiver: receiverOf(found),
    };
  }

  /** DELETE /v3/payments/{id}; Asaas refuses (4xx) a payment already received or already removed. */
  async cancelCharge(providerChargeId: string): Promise<boolean> {
    try {
      const result = await this.client.request('DELETE', `/v3/payments/${encodeURIComponent(providerChargeId)}`, deletedPayment);
      return result.deleted;
    } catch (error) {
      if (error instanceof AsaasRequestError) return false;
      throw error;
    }
  }

  private async orMissing<T>(call: () => Promise<T>): Promise<T | 'missing'> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof AsaasRequestError && error.status === 404) return 'missing';
      throw error;
    }
  }

  private async customerId(driver: ChargeRequest['driver']): Promise<string> {
    const found = await this.client.request('GET', `/v3/customers?cpfCnpj=${encodeURIComponent(driver.cpfCnpj)}`, customerList);
    const first = found.data[0];
    if (first) return first.id;
    const created = await this.client.request('POST', '/v3/customers', withId, { name: driver.name, cpfCnpj: driver.cpfCnpj });
    return created.id;
  }
}
