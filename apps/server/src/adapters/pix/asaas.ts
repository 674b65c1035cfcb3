import { serverMessages } from '@portal/domain';
import { z } from 'zod';
import { AsaasClient, AsaasRequestError } from './asaas-client.js';
import type { AsaasClientConfig } from './asaas-client.js';
import type {
  AutomaticAuthorizationRequest,
  AutomaticCycleRequest,
  ChargeRequest,
  CreatedAutomaticAuthorization,
  CreatedAutomaticCycle,
  CreatedCharge,
  ListedTransfer,
  PayoutRequest,
  PayoutResult,
  PixProvider,
  ProviderAuthorization,
  ProviderInstruction,
  ProviderPayment,
  ProviderTransfer,
  TransferReceiver,
} from './port.js';
import type { PixAutomaticFrequency } from '@portal/domain';
import { pixAutomaticMessages } from '@portal/domain';
import { PayoutRejected, PixProviderUnavailable } from './port.js';

const customerList = z.object({ data: z.array(z.object({ id: z.string(), name: z.string().nullish() })) });
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
  // Decision 58: the QR Code a Pix Automático authorization's first payment paid, and the authorization of a cycle's payment.
  pixQrCodeId: z.string().nullish(),
  pixAutomaticAuthorizationId: z.string().nullish(),
});
/** GET /v3/transfers: a page of the list (offset, limit at most 100, hasMore). */
const transferPage = z.object({ hasMore: z.boolean(), data: z.array(transfer) });
/** At most this many pages (100 transfers each) are read when looking a withdrawal's transfers up. */
const MAX_TRANSFER_PAGES = 50;
const deletedPayment = z.object({ deleted: z.boolean(), id: z.string() });
/** PixReceiverAutomaticRecurringAuthorizationGetResponseDTO (the fields we read). */
const authorization = z.object({
  id: z.string(),
  status: z.string(),
  contractId: z.string().nullish(),
  value: z.number().nullish(),
  payload: z.string().nullish(),
  immediateQrCode: z.object({ conciliationIdentifier: z.string().nullish(), expirationDate: z.string().nullish() }).nullish(),
});
/** PixAutomaticRecurringPaymentInstructionGetResponseDTO (the fields we read). */
const instruction = z.object({
  id: z.string(),
  status: z.string(),
  paymentId: z.string().nullish(),
  authorization: z.object({ id: z.string().nullish() }).nullish(),
  refusalReason: z.string().nullish(),
});

/** IN BCB 436/2023 art. 2's periods, in Asaas's words (PixAutomaticRecurringFrequency). */
const ASAAS_FREQUENCY: Record<PixAutomaticFrequency, 'WEEKLY' | 'MONTHLY'> = { SEMANAL: 'WEEKLY', MENSAL: 'MONTHLY' };

const cents = (reais: number) => Math.round(reais * 100);

function receiverOf(t: z.output<typeof transfer>): TransferReceiver | null {
  const name = t.bankAccount?.ownerName?.trim() || null;
  const document = t.bankAccount?.cpfCnpj?.trim() || null;
  return name || document ? { name, document } : null;
}

function transferOf(t: z.output<typeof transfer>): ProviderTransfer {
  return {
    status: t.status,
    failReason: t.failReason ?? null,
    externalReference: t.externalReference ?? null,
    amountCents: t.value === null || t.value === undefined ? null : cents(t.value),
    pixKey: t.bankAccount?.pixAddressKey ?? null,
    operationType: t.operationType ?? null,
    receiver: receiverOf(t),
  };
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
      pixQrCodeId: found.pixQrCodeId ?? null,
      automaticAuthorizationId: found.pixAutomaticAuthorizationId ?? null,
    };
  }

  /**
   * Decision 58, "Jornada 3": POST /v3/pix/automatic/authorizations with an immediateQrCode, whose
   * payment both credits the first cycle and gives the consent. paymentCreationMode MANUAL: the
   * portal creates each cycle's payment itself (createAutomaticCycle), with its own externalReference.
   */
  async createAutomaticAuthorization(request: AutomaticAuthorizationRequest): Promise<CreatedAutomaticAuthorization> {
    const customerId = await this.customerId(request.driver);
    const value = request.amountCents / 100;
    const seconds = Math.max(60, Math.round((request.qrExpiresAt.getTime() - Date.now()) / 1000));
    const created = await this.client.request('POST', '/v3/pix/automatic/authorizations', authorization, {
      frequency: ASAAS_FREQUENCY[request.frequency],
      contractId: request.authorizationId,
      startDate: request.startDate,
      value,
      description: pixAutomaticMessages.providerDescription,
      customerId,
      immediateQrCode: { expirationSeconds: seconds, originalValue: value, description: pixAutomaticMessages.providerDescription },
      paymentCreationMode: 'MANUAL',
    });
    if (!created.payload) throw new PixProviderUnavailable('Resposta inesperada do Asaas (autorização sem QR Code)');
    return {
      providerAuthorizationId: created.id,
      payload: created.payload,
      conciliationId: created.immediateQrCode?.conciliationIdentifier ?? null,
      qrExpiresAt: request.qrExpiresAt,
    };
  }

  async getAutomaticAuthorization(providerAuthorizationId: string): Promise<ProviderAuthorization | 'missing'> {
    const found = await this.orMissing(() =>
      this.client.request('GET', `/v3/pix/automatic/authorizations/${encodeURIComponent(providerAuthorizationId)}`, authorization),
    );
    if (found === 'missing') return found;
    return {
      status: found.status,
      contractId: found.contractId ?? null,
      amountCents: found.value === null || found.value === undefined ? null : cents(found.value),
    };
  }

  /** DELETE /v3/pix/automatic/authorizations/{id} answers the authorization, CANCELLED; a 4xx: already ended there. */
  async cancelAutomaticAuthorization(providerAuthorizationId: string): Promise<boolean> {
    try {
      const result = await this.client.request(
        'DELETE',
        `/v3/pix/automatic/authorizations/${encodeURIComponent(providerAuthorizationId)}`,
        authorization,
      );
      return result.status === 'CANCELLED';
    } catch (error) {
      if (error instanceof AsaasRequestError) return false;
      throw error;
    }
  }

  /**
   * A cycle: POST /v3/payments with pixAutomaticAuthorizationId (Asaas then sends the payment
   * instruction to the payer's bank; its id comes with PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_*).
   */
  async createAutomaticCycle(request: AutomaticCycleRequest): Promise<CreatedAutomaticCycle> {
    const customer = await this.customerId(request.driver);
    const created = await this.client.request('POST', '/v3/payments', withId, {
      customer,
      billingType: 'PIX',
      value: request.amountCents / 100,
      dueDate: request.dueDate,
      description: pixAutomaticMessages.providerDescription,
      externalReference: request.chargeId,
      pixAutomaticAuthorizationId: request.providerAuthorizationId,
    });
    return { providerChargeId: created.id, instructionId: null };
  }

  async getAutomaticInstruction(instructionId: string): Promise<ProviderInstruction | 'missing'> {
    const found = await this.orMissing(() =>
      this.client.request('GET', `/v3/pix/automatic/paymentInstructions/${encodeURIComponent(instructionId)}`, instruction),
    );
    if (found === 'missing') return found;
    return {
      status: found.status,
      paymentId: found.paymentId ?? null,
      authorizationId: found.authorization?.id ?? null,
      refusalReason: found.refusalReason ?? null,
    };
  }

  async getTransfer(providerTransferId: string): Promise<ProviderTransfer | 'missing'> {
    const found = await this.orMissing(() =>
      this.client.request('GET', `/v3/transfers/${encodeURIComponent(providerTransferId)}`, transfer),
    );
    return found === 'missing' ? found : transferOf(found);
  }

  /**
   * Asaas's "Listar transferências" filters by creation date and type, not by externalReference
   * (docs.asaas.com/reference/list-transfers): the transfers created since that São Paulo day are
   * read page by page; the caller keeps those with its reference.
   */
  async transfersSince(since: Date): Promise<ListedTransfer[]> {
    const found: ListedTransfer[] = [];
    const from = encodeURIComponent(saoPauloDate(since));
    for (let page = 0; page < MAX_TRANSFER_PAGES; page++) {
      const path = `/v3/transfers?dateCreated%5Bge%5D=${from}&offset=${page * 100}&limit=100`;
      const list = await this.client.request('GET', path, transferPage);
      for (const t of list.data) found.push({ id: t.id, ...transferOf(t) });
      if (!list.hasMore) return found;
    }
    throw new PixProviderUnavailable(`Mais de ${MAX_TRANSFER_PAGES * 100} transferências desde ${saoPauloDate(since)}: consulte no painel`);
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

  /** PUT /v3/customers/{id} when the customer's name is not the driver's any more. */
  async updateCustomerName(driver: ChargeRequest['driver']): Promise<void> {
    const first = await this.findCustomer(driver.cpfCnpj);
    if (first && first.name !== driver.name) await this.renameCustomer(first.id, driver.name);
  }

  /** The CPF/CNPJ's customer, created with the driver's name the first time; a name corrected since is given to it. */
  private async customerId(driver: ChargeRequest['driver']): Promise<string> {
    const first = await this.findCustomer(driver.cpfCnpj);
    if (first) {
      if (first.name !== driver.name) await this.renameCustomer(first.id, driver.name);
      return first.id;
    }
    const created = await this.client.request('POST', '/v3/customers', withId, { name: driver.name, cpfCnpj: driver.cpfCnpj });
    return created.id;
  }

  private async findCustomer(cpfCnpj: string): Promise<{ id: string; name?: string | null } | undefined> {
    const found = await this.client.request('GET', `/v3/customers?cpfCnpj=${encodeURIComponent(cpfCnpj)}`, customerList);
    return found.data[0];
  }

  private async renameCustomer(id: string, name: string): Promise<void> {
    await this.client.request('PUT', `/v3/customers/${encodeURIComponent(id)}`, withId, { name });
  }
}
