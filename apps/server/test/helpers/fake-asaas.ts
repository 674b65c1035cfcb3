import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStaticPix, hasError } from 'pix-utils';

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | null;
}

/** One call of the transfer validation, as Asaas made it, and what it got. */
export interface ValidationCall {
  transferId: string;
  attempts: { status: number | null; body: unknown }[];
  /** APPROVED / REFUSED as answered; FAILED: three failed attempts (Asaas then cancels the transfer). */
  outcome: 'APPROVED' | 'REFUSED' | 'FAILED';
}

/** Where the fake calls the portal back, as Asaas calls a configured URL with its token. */
export interface Callback {
  url: string;
  token: string;
}

export type TransferScript =
  | { status: 'DONE' | 'PENDING' | 'BANK_PROCESSING' }
  | { status: 'FAILED'; failReason: string }
  | { httpStatus: number; errors?: { code: string; description: string }[] }
  | { delayMs: number };

interface Refund {
  dateCreated: string;
  status: 'DONE';
  value: number;
  description: string | null;
  transactionReceiptUrl: string | null;
  refundedSplits: null;
  endToEndIdentifier: string;
}

interface Payment {
  id: string;
  dateCreated: string;
  customer: string;
  value: number;
  description: string | null;
  status: string;
  dueDate: string;
  paymentDate: string | null;
  clientPaymentDate: string | null;
  externalReference: string | null;
  deleted: boolean;
  refunds: Refund[];
  pixTransaction: string | null;
  /** Pix Automático: the QR Code a first payment paid, and the authorization a cycle's payment belongs to. */
  pixQrCodeId: string | null;
  pixAutomaticAuthorizationId: string | null;
}

/** PixReceiverAutomaticRecurringAuthorizationGetResponseDTO (the OpenAPI's fields). */
interface Authorization {
  id: string;
  status: 'CREATED' | 'ACTIVE' | 'CANCELLED' | 'REFUSED' | 'EXPIRED';
  customerId: string;
  contractId: string;
  description: string | null;
  frequency: string;
  startDate: string;
  finishDate: string | null;
  value: number;
  originalValue: number;
  payload: string;
  conciliationIdentifier: string;
  expirationDate: string;
  endToEndIdentifier: string;
  paymentCreationMode: string;
  cancellationDate: string | null;
  cancellationReason: string | null;
}

/** PixAutomaticRecurringPaymentInstructionGetResponseDTO. */
interface Instruction {
  id: string;
  authorizationId: string;
  paymentId: string;
  dueDate: string;
  status: 'AWAITING_REQUEST' | 'SCHEDULED' | 'DONE' | 'CANCELLED' | 'REFUSED';
  refusalReason: string | null;
  endToEndIdentifier: string | null;
}

interface Transfer {
  id: string;
  dateCreated: string;
  value: number;
  status: string;
  failReason: string | null;
  externalReference: string | null;
  description: string | null;
  pixAddressKey: string;
  pixAddressKeyType: string;
  operationType: string;
}

const PIX_FEE = 1.99;
const today = () => new Date().toISOString().slice(0, 10);
const hex = (n: number) => randomBytes(n).toString('hex');

/**
 * Asaas API v3 in the shapes of its official OpenAPI (theoxys/asaas-mock-server spec/openapi.json)
 * and of what that project captured from the real sandbox: whole response objects, payment ids
 * pay_..., transfer ids UUIDs, a real BR Code (EMV with CRC) as the QR payload, a QR code that
 * stays payable for a year after the due date, Pix going straight to RECEIVED, `refunds: null`
 * when there are none, errors as { errors: [{ code, description }] }. Every call is recorded;
 * tests drive what happens at "Asaas" with pay(), refund(), settleTransfer(), down, and with
 * `validation` set it calls the portal's transfer validation as Asaas does (settled() waits for it).
 */
export class FakeAsaas {
  readonly calls: RecordedCall[] = [];
  readonly customers: { id: string; name: string; cpfCnpj: string }[] = [];
  readonly payments = new Map<string, Payment>();
  readonly transfers = new Map<string, Transfer>();
  /** Pix Automático (decision 58). */
  readonly authorizations = new Map<string, Authorization>();
  readonly instructions = new Map<string, Instruction>();
  /** Asaas enables Pix Automático on request: until then its calls answer 403 insufficient_permission. */
  automaticEnabled = true;
  transfer: TransferScript = { status: 'DONE' };
  /** Every /v3 call answers 503 (Asaas out of service). */
  down = false;
  /**
   * Asaas's transfer validation ("Mecanismo para validação de saque via webhooks"), when set: every
   * transfer is created PENDING, then posted as { type: 'TRANSFER', transfer } to this URL with its
   * token. APPROVED: the transfer goes on as `transfer` scripts it; REFUSED, or three failed
   * attempts: CANCELLED (the refuseReason as its failReason). Either way the TRANSFER_* event it
   * leads to is posted to `webhook`, when set.
   */
  validation: Callback | null = null;
  /** Where TRANSFER_* events are posted after a validation. */
  webhook: Callback | null = null;
  readonly validations: ValidationCall[] = [];
  /** The holder of every key's account, as Asaas reports it in bankAccount. */
  keyHolder: { ownerName: string | null; cpfCnpj: string | null } = { ownerName: 'Maria das Graças Souza', cpfCnpj: '529.982.247-25' };
  private readonly inflight = new Set<Promise<void>>();
  private server: http.Server | null = null;
  /** Restarts reuse the first port, so configured URLs stay valid. */
  private port = 0;

  constructor(readonly apiKey: string) {}

  get url(): string {
    if (!this.port) throw new Error('FakeAsaas não iniciado');
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        void this.route(req, raw).then(([status, body]) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The payer paid the QR code: a Pix goes straight to RECEIVED (no CONFIRMED). */
  pay(paymentId: string): Payment {
    const p = this.mustPayment(paymentId);
    p.status = 'RECEIVED';
    p.paymentDate = today();
    p.clientPaymentDate = today();
    p.pixTransaction = randomUUID();
    return p;
  }

  /** A refund carried out (value in reais; the whole remainder when omitted). */
  refund(paymentId: string, value?: number): Payment {
    const p = this.mustPayment(paymentId);
    const done = p.refunds.reduce((s, r) => s + r.value, 0);
    const amount = value ?? Math.round((p.value - done) * 100) / 100;
    p.refunds.push({
      dateCreated: today(),
      status: 'DONE',
      value: amount,
      description: null,
      transactionReceiptUrl: null,
      refundedSplits: null,
      endToEndIdentifier: `D${hex(15)}`,
    });
    if (Math.round((done + amount) * 100) >= Math.round(p.value * 100)) p.status = 'REFUNDED';
    return p;
  }

  /**
   * The payer read the authorization's QR Code in the bank app and paid its first Pix: a payment
   * RECEIVED naming the QR Code (pixQrCodeId, no externalReference: Journey 3), and the authorization
   * ACTIVE. Answers the payment.
   */
  payAuthorizationQr(authorizationId: string): Payment {
    const a = this.mustAuthorization(authorizationId);
    const payment: Payment = {
      id: `pay_${hex(8)}`,
      dateCreated: today(),
      customer: a.customerId,
      value: a.originalValue,
      description: a.description,
      status: 'RECEIVED',
      dueDate: today(),
      paymentDate: today(),
      clientPaymentDate: today(),
      externalReference: null,
      deleted: false,
      refunds: [],
      pixTransaction: randomUUID(),
      pixQrCodeId: a.conciliationIdentifier,
      pixAutomaticAuthorizationId: null,
    };
    this.payments.set(payment.id, payment);
    a.status = 'ACTIVE';
    return payment;
  }

  /** The payer's bank set the cycle's debit for its day (the instruction SCHEDULED). */
  scheduleInstruction(paymentId: string): Instruction {
    const i = this.instructionOf(paymentId);
    i.status = 'SCHEDULED';
    return i;
  }

  /** The debit happened on its day: the payment CONFIRMED, the instruction DONE. */
  debit(paymentId: string): Payment {
    const p = this.mustPayment(paymentId);
    const i = this.instructionOf(paymentId);
    i.status = 'DONE';
    i.endToEndIdentifier = `E${hex(15)}`;
    p.status = 'CONFIRMED';
    p.paymentDate = today();
    p.clientPaymentDate = today();
    p.pixTransaction = randomUUID();
    return p;
  }

  /** The payer's bank refused the cycle's debit (no balance, a limit, a maximum the payer set). */
  refuseInstruction(paymentId: string, refusalReason: string): Instruction {
    const i = this.instructionOf(paymentId);
    i.status = 'REFUSED';
    i.refusalReason = refusalReason;
    return i;
  }

  /** The payer cancelled the authorization in the bank app. */
  cancelAtBank(authorizationId: string): Authorization {
    const a = this.mustAuthorization(authorizationId);
    a.status = 'CANCELLED';
    a.cancellationDate = today();
    a.cancellationReason = 'Cancelado pelo pagador';
    return a;
  }

  instructionOf(paymentId: string): Instruction {
    const found = [...this.instructions.values()].find((i) => i.paymentId === paymentId);
    if (!found) throw new Error(`nenhuma instrução de pagamento da cobrança ${paymentId} no Asaas falso`);
    return found;
  }

  /** Pix Automático webhook bodies as Asaas sends them ("Eventos para Pix Automático"). */
  authorizationWebhook(event: string, authorizationId: string): Record<string, unknown> {
    return {
      id: `evt_${hex(16)}&${hex(4)}`,
      event,
      dateCreated: new Date().toISOString().replace('T', ' ').slice(0, 19),
      authorization: this.authorizationObject(this.mustAuthorization(authorizationId)),
    };
  }

  instructionWebhook(event: string, instructionId: string): Record<string, unknown> {
    const i = this.instructions.get(instructionId);
    if (!i) throw new Error(`instrução ${instructionId} não existe no Asaas falso`);
    return {
      id: `evt_${hex(16)}&${hex(4)}`,
      event,
      dateCreated: new Date().toISOString().replace('T', ' ').slice(0, 19),
      paymentInstruction: this.instructionObject(i),
    };
  }

  /** Waits for every validation (and the event it leads to) still under way. */
  async settled(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
  }

  settleTransfer(id: string, status: 'DONE' | 'FAILED' | 'CANCELLED' | 'BLOCKED', failReason: string | null = null): Transfer {
    const t = this.transfers.get(id);
    if (!t) throw new Error(`transferência ${id} não existe no Asaas falso`);
    t.status = status;
    t.failReason = failReason;
    return t;
  }

  /** A webhook body as Asaas sends it: event id, event, dateCreated and the whole object. */
  paymentWebhook(event: string, paymentId: string): Record<string, unknown> {
    return {
      id: `evt_${hex(16)}&${hex(4)}`,
      event,
      dateCreated: new Date().toISOString().replace('T', ' ').slice(0, 19),
      payment: this.paymentObject(this.mustPayment(paymentId)),
    };
  }

  transferWebhook(event: string, transferId: string): Record<string, unknown> {
    const t = this.transfers.get(transferId);
    if (!t) throw new Error(`transferência ${transferId} não existe no Asaas falso`);
    return {
      id: `evt_${hex(16)}&${hex(4)}`,
      event,
      dateCreated: new Date().toISOString().replace('T', ' ').slice(0, 19),
      transfer: this.transferObject(t),
    };
  }

  private track(work: Promise<void>): void {
    this.inflight.add(work);
    void work.finally(() => this.inflight.delete(work));
  }

  /** Asaas posts the transfer after it is created, up to three times, and honours the answer. */
  private async validate(
    to: Callback,
    t: Transfer,
    script: Exclude<TransferScript, { httpStatus: number } | { delayMs: number }>,
  ): Promise<void> {
    await new Promise((r) => setTimeout(r, 0));
    const call: ValidationCall = { transferId: t.id, attempts: [], outcome: 'FAILED' };
    this.validations.push(call);
    for (let i = 0; i < 3 && call.outcome === 'FAILED'; i++) {
      const answer = await post(to, { type: 'TRANSFER', transfer: this.transferObject(t) });
      call.attempts.push(answer);
      if (answer.status === 200 && isDecision(answer.body)) call.outcome = answer.body.status;
    }
    if (call.outcome === 'APPROVED') {
      t.status = script.status;
      t.failReason = 'failReason' in script ? script.failReason : null;
    } else {
      t.status = 'CANCELLED';
      const attempt = call.attempts.at(-1)?.body;
      t.failReason =
        call.outcome === 'REFUSED' && isDecision(attempt) && typeof attempt.refuseReason === 'string' ? attempt.refuseReason : null;
    }
    const events: Record<string, string | undefined> = {
      DONE: 'TRANSFER_DONE',
      FAILED: 'TRANSFER_FAILED',
      CANCELLED: 'TRANSFER_CANCELLED',
    };
    const event = events[t.status];
    if (event && this.webhook) await post(this.webhook, this.transferWebhook(event, t.id));
  }

  private mustAuthorization(id: string): Authorization {
    const a = this.authorizations.get(id);
    if (!a) throw new Error(`autorização ${id} não existe no Asaas falso`);
    return a;
  }

  private authorizationObject(a: Authorization): Record<string, unknown> {
    return {
      object: 'pixAutomaticRecurringAuthorization',
      id: a.id,
      minLimitValue: null,
      cancellationDate: a.cancellationDate,
      cancellationReason: a.cancellationReason,
      contractId: a.contractId,
      customerId: a.customerId,
      description: a.description,
      finishDate: a.finishDate,
      frequency: a.frequency,
      endToEndIdentifier: a.endToEndIdentifier,
      startDate: a.startDate,
      status: a.status,
      value: a.value,
      // The QR Code while it may be paid.
      payload: a.status === 'CREATED' ? a.payload : null,
      encodedImage: a.status === 'CREATED' ? Buffer.from(`png-${a.id}`).toString('base64') : null,
      immediateQrCode: { conciliationIdentifier: a.conciliationIdentifier, expirationDate: a.expirationDate },
      originType: 'IMMEDIATE_QR_CODE',
      subscriptionId: null,
      paymentCreationMode: a.paymentCreationMode,
      retryPolicy: 'NON_PERMITTED',
    };
  }

  private instructionObject(i: Instruction): Record<string, unknown> {
    const a = this.authorizations.get(i.authorizationId);
    return {
      object: 'pixAutomaticRecurringPaymentInstruction',
      id: i.id,
      endToEndIdentifier: i.endToEndIdentifier,
      authorization: { id: i.authorizationId, endToEndIdentifier: a?.endToEndIdentifier ?? null, customerId: a?.customerId ?? null },
      dueDate: i.dueDate,
      status: i.status,
      paymentId: i.paymentId,
      purpose: 'SCHEDULE',
      refusalReason: i.refusalReason,
      retryAttempt: 0,
    };
  }

  private mustPayment(id: string): Payment {
    const p = this.payments.get(id);
    if (!p) throw new Error(`cobrança ${id} não existe no Asaas falso`);
    return p;
  }

  private paymentObject(p: Payment): Record<string, unknown> {
    const refunded = p.refunds.length > 0;
    return {
      object: 'payment',
      id: p.id,
      dateCreated: p.dateCreated,
      customer: p.customer,
      checkoutSession: null,
      paymentLink: null,
      value: p.value,
      netValue: Math.round((p.value - PIX_FEE) * 100) / 100,
      originalValue: null,
      interestValue: null,
      description: p.description,
      billingType: 'PIX',
      pixTransaction: p.pixTransaction,
      status: p.status,
      dueDate: p.dueDate,
      originalDueDate: p.dueDate,
      paymentDate: p.paymentDate,
      clientPaymentDate: p.clientPaymentDate,
      installmentNumber: null,
      invoiceUrl: `https://sandbox.asaas.com/i/${p.id.slice(4)}`,
      invoiceNumber: String(parseInt(p.id.slice(-6), 16) % 1_000_000).padStart(8, '0'),
      externalReference: p.externalReference,
      deleted: p.deleted,
      anticipated: false,
      anticipable: false,
      creditDate: p.paymentDate,
      estimatedCreditDate: p.paymentDate,
      transactionReceiptUrl: p.paymentDate ? `https://sandbox.asaas.com/comprovantes/${hex(8)}` : null,
      nossoNumero: null,
      bankSlipUrl: null,
      lastInvoiceViewedDate: null,
      lastBankSlipViewedDate: null,
      discount: { value: 0, limitDate: null, dueDateLimitDays: 0, type: 'FIXED' },
      fine: { value: 0, type: 'FIXED' },
      interest: { value: 0, type: 'PERCENTAGE' },
      postalService: false,
      escrow: null,
      // null, not [], when nothing was refunded (captured from the sandbox).
      refunds: refunded ? p.refunds : null,
      pixQrCodeId: p.pixQrCodeId,
      pixAutomaticAuthorizationId: p.pixAutomaticAuthorizationId,
    };
  }

  private transferObject(t: Transfer): Record<string, unknown> {
    return {
      object: 'transfer',
      id: t.id,
      type: t.operationType,
      operationType: t.operationType,
      dateCreated: t.dateCreated,
      value: t.value,
      netValue: t.value,
      transferFee: 0,
      status: t.status,
      effectiveDate: t.status === 'DONE' ? today() : null,
      scheduleDate: today(),
      endToEndIdentifier: t.status === 'DONE' ? `E${hex(15)}` : null,
      authorized: true,
      failReason: t.failReason,
      externalReference: t.externalReference,
      transactionReceiptUrl: null,
      description: t.description,
      recurring: null,
      walletId: null,
      // The receiver's data: the portal keeps the holder for the receipt (a CPF masked), never logs it.
      bankAccount: {
        bank: { ispb: '00000000', code: '001', name: 'Banco do Brasil S.A.' },
        accountName: null,
        ownerName: this.keyHolder.ownerName,
        cpfCnpj: this.keyHolder.cpfCnpj,
        agency: '0001',
        agencyDigit: null,
        account: '123456',
        accountDigit: '7',
        pixAddressKey: t.pixAddressKey,
      },
    };
  }

  /** POST /v3/pix/automatic/authorizations with its immediateQrCode (Journey 3), validated as the OpenAPI says. */
  private createAuthorization(body: Record<string, unknown> | null): [number, unknown] {
    const qr = body?.immediateQrCode as Record<string, unknown> | undefined;
    if (!this.customers.some((c) => c.id === body?.customerId)) return invalid('invalid_customer', 'Cliente inválido ou não informado.');
    if (typeof body?.frequency !== 'string' || !FREQUENCIES.includes(body.frequency))
      return invalid('invalid_frequency', 'Frequência inválida.');
    if (typeof body.contractId !== 'string' || body.contractId.length === 0 || body.contractId.length > 35)
      return invalid('invalid_contractId', 'O identificador do contrato deve ter até 35 caracteres.');
    if (typeof body.startDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(body.startDate))
      return invalid('invalid_startDate', 'Data de início inválida.');
    if (typeof body.description === 'string' && body.description.length > 35)
      return invalid('invalid_description', 'A descrição deve ter até 35 caracteres.');
    if (typeof body.value !== 'number' || body.value <= 0) return invalid('invalid_value', 'Valor inválido.');
    if (!qr || typeof qr.expirationSeconds !== 'number' || !Number.isInteger(qr.expirationSeconds) || typeof qr.originalValue !== 'number')
      return invalid('invalid_immediateQrCode', 'Informe o QR Code imediato (expirationSeconds e originalValue).');
    const id = randomUUID();
    const pix = createStaticPix({
      merchantName: 'ASAAS',
      merchantCity: 'JOINVILLE',
      pixKey: 'ae7b3e62-5c2a-4a5f-9a56-3f9d2a7c1b10',
      txid: id.replace(/-/g, '').slice(0, 25),
      transactionAmount: qr.originalValue,
    });
    if (hasError(pix)) throw new Error(pix.message);
    const expires = new Date(Date.now() + qr.expirationSeconds * 1000);
    const a: Authorization = {
      id,
      status: 'CREATED',
      customerId: body.customerId as string,
      contractId: body.contractId,
      description: typeof body.description === 'string' ? body.description : null,
      frequency: body.frequency,
      startDate: body.startDate,
      finishDate: typeof body.finishDate === 'string' ? body.finishDate : null,
      value: body.value,
      originalValue: qr.originalValue,
      payload: pix.toBRCode(),
      conciliationIdentifier: `E${hex(16)}`,
      expirationDate: expires.toISOString().replace('T', ' ').slice(0, 19),
      endToEndIdentifier: `RR${hex(14)}`,
      paymentCreationMode: typeof body.paymentCreationMode === 'string' ? body.paymentCreationMode : 'MANUAL',
      cancellationDate: null,
      cancellationReason: null,
    };
    this.authorizations.set(id, a);
    return [200, this.authorizationObject(a)];
  }

  /** A cycle's payment: an active authorization, its fixed value, and a due date 2 to 10 days ahead. */
  private cycleRefusal(authorizationId: string, value: unknown, dueDate: string): [number, unknown] | null {
    const a = this.authorizations.get(authorizationId);
    if (!a || a.status !== 'ACTIVE') return invalid('invalid_pixAutomaticAuthorization', 'A autorização do Pix Automático não está ativa.');
    if (value !== a.value) return invalid('invalid_value', 'O valor deve ser o valor fixo da autorização.');
    const days = Math.round((Date.parse(`${dueDate}T12:00:00Z`) - Date.parse(`${today()}T12:00:00Z`)) / 86_400_000);
    if (days < 2 || days > 10)
      return invalid('invalid_dueDate', 'A cobrança do Pix Automático deve ser criada de 2 a 10 dias úteis antes do vencimento.');
    return null;
  }

  private async route(req: http.IncomingMessage, raw: string): Promise<[number, unknown]> {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    this.calls.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), body });
    if (this.down) return [503, { errors: [{ code: 'service_unavailable', description: 'Serviço indisponível' }] }];
    if (req.headers.access_token !== this.apiKey)
      return [401, { errors: [{ code: 'invalid_access_token', description: 'A chave de API fornecida é inválida' }] }];
    const path = url.pathname;

    if (req.method === 'GET' && path === '/v3/customers') {
      const data = this.customers.filter((c) => c.cpfCnpj === url.searchParams.get('cpfCnpj'));
      return [
        200,
        { object: 'list', hasMore: false, totalCount: data.length, limit: 10, offset: 0, data: data.map((c) => customerObject(c)) },
      ];
    }
    if (req.method === 'POST' && path === '/v3/customers') {
      if (typeof body?.name !== 'string' || typeof body.cpfCnpj !== 'string')
        return invalid('invalid_customer', 'O nome do cliente é obrigatório.');
      const customer = { id: `cus_${String(Date.now()).slice(-12)}${hex(1)}`, name: body.name, cpfCnpj: body.cpfCnpj };
      this.customers.push(customer);
      return [200, customerObject(customer)];
    }
    const customerPath = /^\/v3\/customers\/([^/]+)$/.exec(path);
    if (req.method === 'PUT' && customerPath) {
      const customer = this.customers.find((c) => c.id === decodeURIComponent(customerPath[1] ?? ''));
      if (!customer) return [404, { errors: [{ code: 'not_found', description: 'Cliente não encontrado.' }] }];
      if (typeof body?.name === 'string') customer.name = body.name;
      return [200, customerObject(customer)];
    }
    if (req.method === 'POST' && path === '/v3/payments') {
      if (!this.customers.some((c) => c.id === body?.customer)) return invalid('invalid_customer', 'Cliente inválido ou não informado.');
      if (body?.billingType !== 'PIX') return invalid('invalid_billingType', 'Forma de pagamento inválida.');
      if (typeof body.value !== 'number' || body.value <= 0) return invalid('invalid_value', 'Valor inválido.');
      if (typeof body.dueDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(body.dueDate))
        return invalid('invalid_dueDate', 'Data de vencimento inválida.');
      const automatic = typeof body.pixAutomaticAuthorizationId === 'string' ? body.pixAutomaticAuthorizationId : null;
      if (automatic !== null) {
        const refusal = this.cycleRefusal(automatic, body.value, body.dueDate);
        if (refusal) return refusal;
      }
      const payment: Payment = {
        id: `pay_${hex(8)}`,
        dateCreated: today(),
        customer: body.customer as string,
        value: body.value,
        description: typeof body.description === 'string' ? body.description : null,
        status: 'PENDING',
        dueDate: body.dueDate,
        paymentDate: null,
        clientPaymentDate: null,
        externalReference: typeof body.externalReference === 'string' ? body.externalReference : null,
        deleted: false,
        refunds: [],
        pixTransaction: null,
        pixQrCodeId: null,
        pixAutomaticAuthorizationId: automatic,
      };
      this.payments.set(payment.id, payment);
      // A payment linked to an authorization becomes the payer's bank's payment instruction.
      if (automatic !== null) {
        const instruction: Instruction = {
          id: randomUUID(),
          authorizationId: automatic,
          paymentId: payment.id,
          dueDate: payment.dueDate,
          status: 'AWAITING_REQUEST',
          refusalReason: null,
          endToEndIdentifier: null,
        };
        this.instructions.set(instruction.id, instruction);
      }
      return [200, this.paymentObject(payment)];
    }
    if (path.startsWith('/v3/pix/automatic/') && !this.automaticEnabled)
      return [403, { errors: [{ code: 'insufficient_permission', description: 'Você não possui permissão para utilizar este recurso' }] }];
    if (req.method === 'POST' && path === '/v3/pix/automatic/authorizations') return this.createAuthorization(body);
    const auth = /^\/v3\/pix\/automatic\/authorizations\/([^/]+)$/.exec(path);
    if (auth) {
      const a = this.authorizations.get(decodeURIComponent(auth[1] ?? ''));
      if (!a) return notFound();
      if (req.method === 'GET') return [200, this.authorizationObject(a)];
      if (req.method === 'DELETE') {
        if (a.status !== 'CREATED' && a.status !== 'ACTIVE') return invalid('invalid_action', 'Esta autorização não pode ser cancelada.');
        a.status = 'CANCELLED';
        a.cancellationDate = today();
        a.cancellationReason = 'Cancelado pelo recebedor';
        for (const i of this.instructions.values()) {
          if (i.authorizationId === a.id && (i.status === 'AWAITING_REQUEST' || i.status === 'SCHEDULED')) i.status = 'CANCELLED';
        }
        return [200, this.authorizationObject(a)];
      }
    }
    const instruction = /^\/v3\/pix\/automatic\/paymentInstructions\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && instruction) {
      const i = this.instructions.get(decodeURIComponent(instruction[1] ?? ''));
      return i ? [200, this.instructionObject(i)] : notFound();
    }
    const qr = /^\/v3\/payments\/([^/]+)\/pixQrCode$/.exec(path);
    if (req.method === 'GET' && qr) {
      const payment = this.payments.get(decodeURIComponent(qr[1] ?? ''));
      if (!payment || payment.deleted) return notFound();
      const pix = createStaticPix({
        merchantName: 'ASAAS',
        merchantCity: 'JOINVILLE',
        pixKey: 'ae7b3e62-5c2a-4a5f-9a56-3f9d2a7c1b10',
        txid: payment.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 25),
        transactionAmount: payment.value,
      });
      if (hasError(pix)) throw new Error(pix.message);
      // The QR code stays payable for a year after the due date, at 23:59:59 (captured from the sandbox).
      const expiration = `${Number(payment.dueDate.slice(0, 4)) + 1}${payment.dueDate.slice(4)} 23:59:59`;
      return [
        200,
        { encodedImage: Buffer.from(`png-${payment.id}`).toString('base64'), payload: pix.toBRCode(), expirationDate: expiration },
      ];
    }
    const one = /^\/v3\/payments\/([^/]+)$/.exec(path);
    if (one) {
      const payment = this.payments.get(decodeURIComponent(one[1] ?? ''));
      if (!payment) return notFound();
      if (req.method === 'GET') return [200, this.paymentObject(payment)];
      if (req.method === 'DELETE') {
        if (payment.deleted) return notFound();
        if (payment.status !== 'PENDING' && payment.status !== 'OVERDUE')
          return invalid('invalid_action', 'Não é possível remover uma cobrança já recebida.');
        payment.deleted = true;
        return [200, { deleted: true, id: payment.id }];
      }
    }
    if (req.method === 'POST' && path === '/v3/transfers') {
      const script = this.transfer;
      const created = (status: string, failReason: string | null = null): Transfer => {
        const t: Transfer = {
          id: randomUUID(),
          dateCreated: today(),
          value: Number(body?.value),
          status,
          failReason,
          externalReference: typeof body?.externalReference === 'string' ? body.externalReference : null,
          description: typeof body?.description === 'string' ? body.description : null,
          pixAddressKey: String(body?.pixAddressKey),
          pixAddressKeyType: String(body?.pixAddressKeyType),
          operationType: typeof body?.operationType === 'string' ? body.operationType : 'PIX',
        };
        this.transfers.set(t.id, t);
        return t;
      };
      if ('httpStatus' in script) return [script.httpStatus, script.errors ? { errors: script.errors } : {}];
      if (this.validation && !('delayMs' in script)) {
        const t = created('PENDING');
        this.track(this.validate(this.validation, t, script));
        return [200, this.transferObject(t)];
      }
      if ('delayMs' in script) {
        const t = created('PENDING');
        await new Promise((r) => setTimeout(r, script.delayMs));
        return [200, this.transferObject(t)];
      }
      return [200, this.transferObject(created(script.status, 'failReason' in script ? script.failReason : null))];
    }
    // "Listar transferências": filters by creation date (dateCreated[ge]), pages by offset and limit (at most 100).
    if (req.method === 'GET' && path === '/v3/transfers') {
      const from = url.searchParams.get('dateCreated[ge]') ?? '';
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 10), 100);
      const all = [...this.transfers.values()].filter((t) => t.dateCreated >= from);
      const data = all.slice(offset, offset + limit).map((t) => this.transferObject(t));
      return [200, { object: 'list', hasMore: offset + limit < all.length, totalCount: all.length, limit, offset, data }];
    }
    const transfer = /^\/v3\/transfers\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && transfer) {
      const t = this.transfers.get(decodeURIComponent(transfer[1] ?? ''));
      return t ? [200, this.transferObject(t)] : notFound();
    }
    return notFound();
  }
}

const FREQUENCIES = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUALLY', 'ANNUALLY'];

function isDecision(body: unknown): body is { status: 'APPROVED' | 'REFUSED'; refuseReason?: unknown } {
  const status = typeof body === 'object' && body !== null ? (body as { status?: unknown }).status : undefined;
  return status === 'APPROVED' || status === 'REFUSED';
}

async function post(to: Callback, body: unknown): Promise<{ status: number | null; body: unknown }> {
  try {
    const res = await fetch(to.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'asaas-access-token': to.token },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    return { status: res.status, body: parsed };
  } catch (error) {
    return { status: null, body: String(error) };
  }
}

function customerObject(c: { id: string; name: string; cpfCnpj: string }): Record<string, unknown> {
  return {
    object: 'customer',
    id: c.id,
    dateCreated: today(),
    name: c.name,
    email: null,
    company: null,
    phone: null,
    mobilePhone: null,
    address: null,
    addressNumber: null,
    complement: null,
    province: null,
    postalCode: null,
    cpfCnpj: c.cpfCnpj,
    personType: c.cpfCnpj.length === 11 ? 'FISICA' : 'JURIDICA',
    deleted: false,
    additionalEmails: null,
    externalReference: null,
    notificationDisabled: false,
    observations: null,
    municipalInscription: null,
    stateInscription: null,
    canDelete: true,
    cannotBeDeletedReason: null,
    canEdit: true,
    cannotEditReason: null,
    city: null,
    cityName: null,
    state: null,
    country: 'Brasil',
  };
}

function invalid(code: string, description: string): [number, unknown] {
  return [400, { errors: [{ code, description }] }];
}

function notFound(): [number, unknown] {
  return [404, { errors: [{ code: 'not_found', description: 'Recurso não encontrado.' }] }];
}
