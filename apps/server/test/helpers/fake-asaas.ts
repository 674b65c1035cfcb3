import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | null;
}

export type TransferScript =
  | { status: 'DONE' | 'PENDING' | 'BANK_PROCESSING' }
  | { status: 'FAILED'; failReason: string }
  | { httpStatus: number; errors?: { code: string; description: string }[] }
  | { delayMs: number };

/**
 * A small Asaas API v3 as its public documentation describes it: access_token header,
 * customers (list by cpfCnpj, create), PIX payments and their pixQrCode, transfers to Pix keys,
 * errors as { errors: [{ code, description }] }. Every call is recorded.
 */
export class FakeAsaas {
  readonly calls: RecordedCall[] = [];
  readonly customers: { id: string; name: string; cpfCnpj: string }[] = [];
  readonly payments = new Map<string, { id: string; customer: string; value: number; externalReference: string }>();
  transfer: TransferScript = { status: 'DONE' };
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

  private async route(req: http.IncomingMessage, raw: string): Promise<[number, unknown]> {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    this.calls.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), body });
    if (req.headers.access_token !== this.apiKey) return [401, { errors: [{ code: 'invalid_access_token', description: 'A chave de API fornecida é inválida' }] }];
    const id = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

    if (req.method === 'GET' && url.pathname === '/v3/customers') {
      const data = this.customers.filter((c) => c.cpfCnpj === url.searchParams.get('cpfCnpj'));
      return [200, { object: 'list', hasMore: false, totalCount: data.length, limit: 10, offset: 0, data: data.map((c) => ({ object: 'customer', ...c })) }];
    }
    if (req.method === 'POST' && url.pathname === '/v3/customers') {
      if (typeof body?.name !== 'string' || typeof body.cpfCnpj !== 'string') return invalid('O nome do cliente é obrigatório.');
      const customer = { id: id('cus'), name: body.name, cpfCnpj: body.cpfCnpj };
      this.customers.push(customer);
      return [200, { object: 'customer', ...customer }];
    }
    if (req.method === 'POST' && url.pathname === '/v3/payments') {
      if (!this.customers.some((c) => c.id === body?.customer)) return invalid('Cliente inválido ou não informado.');
      if (body?.billingType !== 'PIX') return invalid('Forma de pagamento inválida.');
      if (typeof body.value !== 'number' || body.value <= 0) return invalid('Valor inválido.');
      if (typeof body.dueDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(body.dueDate)) return invalid('Data de vencimento inválida.');
      const payment = { id: id('pay'), customer: body.customer as string, value: body.value, externalReference: String(body.externalReference) };
      this.payments.set(payment.id, payment);
      return [200, { object: 'payment', ...payment, billingType: 'PIX', status: 'PENDING', dueDate: body.dueDate }];
    }
    const qr = /^\/v3\/payments\/([^/]+)\/pixQrCode$/.exec(url.pathname);
    if (req.method === 'GET' && qr) {
      const payment = this.payments.get(decodeURIComponent(qr[1] ?? ''));
      if (!payment) return [404, { errors: [{ code: 'not_found', description: 'Cobrança não encontrada.' }] }];
      return [200, { encodedImage: Buffer.from(`png-${payment.id}`).toString('base64'), payload: `00020101021226880014br.gov.bcb.pix${payment.id}`, expirationDate: '2026-12-31 23:59:59' }];
    }
    if (req.method === 'POST' && url.pathname === '/v3/transfers') {
      const script = this.transfer;
      if ('delayMs' in script) {
        await new Promise((r) => setTimeout(r, script.delayMs));
        return [200, { object: 'transfer', id: id('tra'), status: 'PENDING' }];
      }
      if ('httpStatus' in script) return [script.httpStatus, script.errors ? { errors: script.errors } : {}];
      return [200, { object: 'transfer', id: id('tra'), value: body?.value, operationType: 'PIX', failReason: null, ...script }];
    }
    return [404, { errors: [{ code: 'not_found', description: 'Recurso não encontrado' }] }];
  }
}

function invalid(description: string): [number, unknown] {
  return [400, { errors: [{ code: 'invalid_action', description }] }];
}
