import { cnpj, cpf } from 'cpf-cnpj-validator';
import { formatBrl, LEDGER_LIMIT_CENTS, MAX_PAGE, MAX_PASSAGE_CENTS, MAX_VPO_CENTS, messages, serverMessages } from '@portal/domain';
import type { InjectOptions } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { accountId, LedgerLimitError, post } from '../../src/modules/ledger/ledger.js';
import { PartnerService } from '../../src/modules/partners/service.js';
import { bearer, json, registerDriver, useTestApp } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { snapshotDatabase } from '../helpers/db-watch.js';
import { acceptTerms, expectLedgerInvariant, fund, ownBalance, WEBHOOK_TOKEN } from '../helpers/pix.js';
import { actions, registerTag, SEMPARAR } from '../helpers/tags.js';
import type { RegisteredTag } from '../helpers/tags.js';

const NUL = '\u0000';
const chars = messages.input.invalidCharacters;
const above = (max: number) => messages.partner.valueAboveMaximum.replace('{max}', formatBrl(max));
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

/**
 * Issue 8, point 4 and 5: input the database cannot store, and amounts that would break the
 * ledger. Each of these answered 500 on PostgreSQL (and was stored on SQLite) before; now each is
 * a 422 with the field's Portuguese message, the same on both databases, and nothing is written.
 */
describeEachDatabase('entrada hostil', (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  let d: Registered;
  let tag: RegisteredTag;
  const keys = { shipper: '', operator: '', platform: '' };

  beforeAll(async () => {
    d = await registerDriver(app());
    await acceptTerms(app(), d);
    await fund(app(), d, 200);
    tag = await registerTag(app(), d, { Operadora: SEMPARAR });
    expect((await actions.activate(app(), d, tag.serial, tag.plate)).statusCode).toBe(200);
    const partners = new PartnerService(ctx().db);
    keys.shipper = (await partners.create('shipper', 'Embarcador Hostil')).key;
    keys.operator = (await partners.create('operator', 'Operadora Hostil', SEMPARAR)).key;
    keys.platform = (await partners.create('platform', 'Plataforma Hostil')).key;
  });

  const partner = (key: keyof typeof keys, url: string, payload: object, method: 'POST' | 'PATCH' = 'POST'): InjectOptions => ({
    method,
    url,
    headers: { 'x-api-key': keys[key] },
    payload,
  });
  const driver = (method: 'GET' | 'POST', url: string, payload?: object): InjectOptions => ({
    method,
    url,
    headers: bearer(d.token),
    ...(payload ? { payload } : {}),
  });
  const webhook = (payload: object): InjectOptions => ({
    method: 'POST',
    url: '/api/webhooks/asaas',
    headers: { 'asaas-access-token': WEBHOOK_TOKEN },
    payload,
  });
  const passage = (o: object = {}) => ({
    externalId: `p-${Math.random()}`,
    serialNumber: tag.serial,
    placeName: 'Praça Itupeva',
    value: 12.3,
    occurredAt: minutesAgo(30),
    ...o,
  });
  const vpo = (o: object = {}) => ({
    externalId: `v-${Math.random()}`,
    serialNumber: tag.serial,
    PlacaVeiculo: tag.plate,
    CpfCnpjEmbarcador: cnpj.generate(),
    ValorTotalVP: 350.5,
    origem: 'Santos/SP',
    destino: 'Campinas/SP',
    ...o,
  });
  const movement = (o: object = {}) => ({
    externalId: `m-${Math.random()}`,
    cpfCnpj: d.cpfCnpj,
    origin: 'credito-terceiro-movemais',
    value: 10,
    occurredAt: minutesAgo(30),
    ...o,
  });
  const withdrawal = (o: object) => ({
    description: 'Saque',
    receiver_document: d.cpfCnpj,
    amount: 10,
    pix: { type: 'EVP', key: '123e4567-e89b-12d3-a456-426614174000' },
    ...o,
  });

  /** [what, request, field, message]: the 500s reproduced on PostgreSQL before the change. */
  const reported = (): [string, InjectOptions, string, string][] => [
    [
      'name at registration with NUL',
      {
        method: 'POST',
        url: '/api/user/create-user',
        payload: {
          name: `Maria${NUL} Souza`,
          cpfCnpj: cpf.generate(),
          phoneNumber: '11987654321',
          password: 'segredo123',
          password_confirmation: 'segredo123',
          type: 'driver',
        },
      },
      'name',
      chars,
    ],
    [
      'Pix key with NUL',
      driver('POST', '/api/motorista/sacar', withdrawal({ pix: { type: 'EVP', key: `123e4567${NUL}` } })),
      'pix.key',
      chars,
    ],
    [
      'withdrawal description with NUL',
      driver('POST', '/api/motorista/sacar', withdrawal({ description: `Saque${NUL}` })),
      'description',
      chars,
    ],
    [
      'passage placeName with NUL',
      partner('operator', '/api/parceiro/passagens', passage({ placeName: `Praça${NUL}` })),
      'placeName',
      chars,
    ],
    [
      'passage externalId with NUL',
      partner('operator', '/api/parceiro/passagens', passage({ externalId: `p${NUL}` })),
      'externalId',
      chars,
    ],
    [
      'passage dated 0000-01-01',
      partner('operator', '/api/parceiro/passagens', passage({ occurredAt: '0000-01-01T00:00:00Z' })),
      'occurredAt',
      messages.partner.occurredAtOutOfRange,
    ],
    [
      'passage dated 9999-12-31',
      partner('operator', '/api/parceiro/passagens', passage({ occurredAt: '9999-12-31T23:59:59-03:00' })),
      'occurredAt',
      messages.partner.occurredAtOutOfRange,
    ],
    ['VPO externalId with NUL', partner('shipper', '/api/parceiro/vpos', vpo({ externalId: `v${NUL}` })), 'externalId', chars],
    ['VPO origem with NUL', partner('shipper', '/api/parceiro/vpos', vpo({ origem: `Santos${NUL}` })), 'origem', chars],
    ['VPO destino with NUL', partner('shipper', '/api/parceiro/vpos', vpo({ destino: `Campinas${NUL}` })), 'destino', chars],
    [
      'VPO of 21474836.48 (past int4 centavos)',
      partner('shipper', '/api/parceiro/vpos', vpo({ ValorTotalVP: 21474836.48 })),
      'ValorTotalVP',
      above(MAX_VPO_CENTS),
    ],
    ['VPO path externalId with NUL', partner('shipper', '/api/parceiro/vpos/a%00b', { Status: 'EM_VIAGEM' }, 'PATCH'), 'externalId', chars],
    [
      'movement externalId with NUL',
      partner('platform', '/api/parceiro/terceiro/movimentos', movement({ externalId: `m${NUL}` })),
      'externalId',
      chars,
    ],
    [
      'movement placeName with NUL',
      partner('platform', '/api/parceiro/terceiro/movimentos', movement({ placeName: `MoveMais${NUL}` })),
      'placeName',
      chars,
    ],
    [
      'movement dated 0000-01-01',
      partner('platform', '/api/parceiro/terceiro/movimentos', movement({ occurredAt: '0000-01-01T00:00:00Z' })),
      'occurredAt',
      messages.partner.occurredAtOutOfRange,
    ],
    ['webhook payment.id with NUL', webhook({ event: 'PAYMENT_RECEIVED', payment: { id: `pay${NUL}`, value: 100 } }), 'payment.id', chars],
    [
      'webhook payment.externalReference with NUL',
      webhook({ event: 'PAYMENT_RECEIVED', payment: { id: 'pay_1', value: 100, externalReference: `pc${NUL}` } }),
      'payment.externalReference',
      chars,
    ],
    [
      'webhook PAYMENT_OVERDUE id with NUL',
      webhook({ event: 'PAYMENT_OVERDUE', payment: { id: `pay${NUL}`, value: 100 } }),
      'payment.id',
      chars,
    ],
    [
      'webhook PAYMENT_REFUNDED id with NUL',
      webhook({ event: 'PAYMENT_REFUNDED', payment: { id: `pay${NUL}`, value: 100 } }),
      'payment.id',
      chars,
    ],
    ['webhook transfer.id with NUL', webhook({ event: 'TRANSFER_DONE', transfer: { id: `tr${NUL}` } }), 'transfer.id', chars],
    [
      'webhook transfer.externalReference with NUL',
      webhook({ event: 'TRANSFER_DONE', transfer: { id: 'tr_1', externalReference: `wd${NUL}` } }),
      'transfer.externalReference',
      chars,
    ],
    [
      'webhook TRANSFER_FAILED externalReference with NUL',
      webhook({ event: 'TRANSFER_FAILED', transfer: { id: 'tr_1', externalReference: `wd${NUL}`, failReason: 'x' } }),
      'transfer.externalReference',
      chars,
    ],
    ['Pix charge path id with NUL', driver('GET', '/api/transacoes/qrcode/pc%00x'), 'id', chars],
    [
      'GET /api/termos/download-base64/2147483648',
      driver('GET', '/api/termos/download-base64/2147483648'),
      'termId',
      messages.input.idInvalid,
    ],
    ['vehicle_id 2147483648', driver('POST', '/api/veiculo/delete', { vehicle_id: 2147483648 }), 'vehicle_id', messages.vehicle.idInvalid],
  ];

  it('every input the database cannot store is a 422 with the field and its Portuguese message; nothing is written', async () => {
    const before = await snapshotDatabase(ctx().db);
    const answers: string[] = [];
    for (const [what, request, field, message] of reported()) {
      const res = await app().inject(request);
      answers.push(`${res.statusCode} ${what}`);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(422);
      expect(json(res), what).toMatchObject({ Sucesso: false, Mensagem: message, errors: { [field]: [message] } });
    }
    expect(answers).toHaveLength(25);
    expect(await snapshotDatabase(ctx().db)).toBe(before);
  });

  it('invisible direction and format characters are refused in every text, like control characters (issue 21, point 8)', async () => {
    const invisible = messages.input.invisibleCharacters;
    const RLO = '\u202e';
    const cases: [string, InjectOptions, string][] = [
      [
        'passage placeName with U+202E',
        partner('operator', '/api/parceiro/passagens', passage({ placeName: `Praça ${RLO}avepu\u202cTI` })),
        'placeName',
      ],
      ['VPO origem with U+200B', partner('shipper', '/api/parceiro/vpos', vpo({ origem: 'Santos\u200b/SP' })), 'origem'],
      ['VPO destino with U+2066', partner('shipper', '/api/parceiro/vpos', vpo({ destino: '\u2066Campinas/SP\u2069' })), 'destino'],
      [
        'movement placeName with U+FEFF',
        partner('platform', '/api/parceiro/terceiro/movimentos', movement({ placeName: '\ufeffMoveMais' })),
        'placeName',
      ],
      [
        'name at registration with U+202E',
        {
          method: 'POST',
          url: '/api/user/create-user',
          payload: {
            name: `Maria ${RLO}azuoS`,
            cpfCnpj: cpf.generate(),
            phoneNumber: '11987654321',
            password: 'segredo123',
            password_confirmation: 'segredo123',
            type: 'driver',
          },
        },
        'name',
      ],
      [
        'withdrawal description with U+200F',
        driver('POST', '/api/motorista/sacar', withdrawal({ description: 'Saque\u200f' })),
        'description',
      ],
    ];
    const before = await snapshotDatabase(ctx().db);
    for (const [what, request, field] of cases) {
      const res = await app().inject(request);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(422);
      expect(json(res), what).toMatchObject({ Sucesso: false, Mensagem: invisible, errors: { [field]: [invisible] } });
    }
    expect(await snapshotDatabase(ctx().db)).toBe(before);
    // A password is never shown: one with U+200D (an emoji's joiner) still registers and signs in.
    const document = cpf.generate();
    const password = 'senha\u{1F468}\u200d\u{1F467}123';
    const registered = await app().inject({
      method: 'POST',
      url: '/api/user/create-user',
      payload: {
        name: 'Maria Souza',
        cpfCnpj: document,
        phoneNumber: '11987654321',
        password,
        password_confirmation: password,
        type: 'driver',
      },
    });
    expect(registered.statusCode, registered.body).toBeLessThan(300);
    const signedIn = await app().inject({ method: 'POST', url: '/api/tokens/login-motorista', payload: { cpfCnpj: document, password } });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  it('a date that does not exist is refused, not stored as another day', async () => {
    const year = new Date().getUTCFullYear();
    const res = await app().inject(partner('operator', '/api/parceiro/passagens', passage({ occurredAt: `${year}-02-30T10:00:00-03:00` })));
    expect(res.statusCode).toBe(422);
    expect(json(res)).toMatchObject({
      Mensagem: messages.partner.occurredAtInvalid,
      errors: { occurredAt: [messages.partner.occurredAtInvalid] },
    });
  });

  it('a purchase of 100.005 or 1e308 gets a message about the value, not the minimum', async () => {
    for (const [valor, message] of [
      [100.005, messages.purchase.valueInvalid],
      [1e308, messages.purchase.aboveMaximum],
    ] as const) {
      const res = await app().inject(driver('POST', '/api/transacoes/gerar-qrcode', { valor, cpfCnpj: d.cpfCnpj, project: 'VPO' }));
      expect(res.statusCode, String(valor)).toBe(422);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: message, errors: { valor: [message] } });
    }
  });

  it('a huge page number is an empty page, never a 500', async () => {
    for (const url of ['/api/extrato/listar', '/api/tag/listar', '/api/veiculo/listar', '/api/pedagio/motoristaVpos']) {
      for (const page of ['99999999999999', '1e300', String(MAX_PAGE)]) {
        const res = await app().inject(driver('GET', `${url}?page=${page}`));
        expect(res.statusCode, `${url}?page=${page}: ${res.body}`).toBe(200);
        const body = json<Record<string, unknown>>(res);
        expect(Object.values(body).find(Array.isArray), url).toEqual([]);
      }
    }
  });

  it('the hostile passage value is refused; the balance still equals its entries and later calls work', async () => {
    const saldo = () => ownBalance(app(), d);
    const start = await saldo();
    const hostile = await app().inject(partner('operator', '/api/parceiro/passagens', passage({ value: 90071992547409.91 })));
    expect(hostile.statusCode).toBe(422);
    expect(json(hostile)).toMatchObject({ Mensagem: above(MAX_PASSAGE_CENTS), errors: { value: [above(MAX_PASSAGE_CENTS)] } });
    expect(await saldo()).toBe(start);
    await expectLedgerInvariant(ctx().db);
    const later = await app().inject(partner('operator', '/api/parceiro/passagens', passage({ value: 12.3 })));
    expect(later.statusCode, later.body).toBe(200);
    expect(await saldo()).toBeCloseTo(start - 12.3, 2);
    await expectLedgerInvariant(ctx().db);
  });

  it('the ledger refuses a movement that would leave the safe range, with a 422 and nothing written', async () => {
    const { db } = ctx();
    const owner = await registerDriver(app());
    await acceptTerms(app(), owner);
    await fund(app(), owner, 100);
    const t = await registerTag(app(), owner, { Operadora: SEMPARAR });
    expect((await actions.activate(app(), owner, t.serial, t.plate)).statusCode).toBe(200);
    const own = await accountId(db.kysely, owner.id, 'own');
    const move = (amountCents: number) =>
      db.kysely.transaction().execute((trx) =>
        post(trx, {
          accountId: own,
          amountCents,
          origin: 'teste',
          placeName: 'Teste',
          idempotencyKey: `limite-${owner.id}-${Math.random()}`,
        }),
      );
    const paid = 10_000 - 1590;
    await expect(move(-(LEDGER_LIMIT_CENTS + 1))).rejects.toBeInstanceOf(LedgerLimitError);
    await expect(move(-LEDGER_LIMIT_CENTS)).resolves.toMatchObject({ status: 'posted', balanceCents: paid - LEDGER_LIMIT_CENTS });
    await expect(move(-paid)).resolves.toMatchObject({ status: 'posted', balanceCents: -LEDGER_LIMIT_CENTS });
    await expect(move(-1)).rejects.toBeInstanceOf(LedgerLimitError);
    await expectLedgerInvariant(db);

    // Through the API: a 422 with the ledger's message, and the driver's account still answers.
    const res = await app().inject(partner('operator', '/api/parceiro/passagens', passage({ serialNumber: t.serial, value: 5000 })));
    expect(res.statusCode, res.body).toBe(422);
    expect(json(res)).toEqual({
      Sucesso: false,
      Mensagem: serverMessages.ledger.limitExceeded,
      errors: { value: [serverMessages.ledger.limitExceeded] },
    });
    const balance = await app().inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(owner.token) });
    expect(balance.statusCode).toBe(200);
    expect(json<{ Saldo: number }>(balance).Saldo).toBe(-LEDGER_LIMIT_CENTS / 100);
    expect((await app().inject({ method: 'GET', url: '/api/extrato/listar', headers: bearer(owner.token) })).statusCode).toBe(200);
    await expect(move(1)).resolves.toMatchObject({ status: 'posted' });
    await expectLedgerInvariant(db);
  });

  it('concurrent movements cannot pass the limit together: the conditional UPDATE decides each', async () => {
    const { db } = ctx();
    const owner = await registerDriver(app());
    const third = await accountId(db.kysely, owner.id, 'third');
    const move = (amountCents: number, key: string) =>
      db.kysely.transaction().execute((trx) =>
        post(trx, {
          accountId: third,
          amountCents,
          origin: 'teste',
          placeName: 'Teste',
          idempotencyKey: `concorrente-${owner.id}-${key}`,
        }),
      );
    await move(LEDGER_LIMIT_CENTS - 500, 'base');
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_v, i) => move(100, String(i))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(LedgerLimitError);
    const row = await db.kysely.selectFrom('accounts').select('balance_cents').where('id', '=', third).executeTakeFirstOrThrow();
    expect(Number(row.balance_cents)).toBe(LEDGER_LIMIT_CENTS);
    await expectLedgerInvariant(db);
  });
});
