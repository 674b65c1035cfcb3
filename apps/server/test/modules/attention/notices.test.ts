import type { AttentionResponse, StatementResponse } from '@portal/contract';
import { formatBrl, serverMessages, STATEMENT_ORIGINS } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { accountId, post as postEntry } from '../../../src/modules/ledger/ledger.js';
import { createServices } from '../../../src/services.js';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { acceptTerms, createCharge, fund, ownBalance, paymentEvent, sendWebhook } from '../../helpers/pix.js';
import { actions, activeTag, tagStatus } from '../../helpers/tags.js';
import type { RegisteredTag } from '../../helpers/tags.js';

const DAY = 24 * 60 * 60 * 1000;
const URL = '/api/motorista/avisos';

describeEachDatabase('avisos do painel', (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  const db = () => ctx().db;
  const services = () => createServices(ctx().config, ctx().db, createLogger('silent'));

  async function attention(d: Registered): Promise<AttentionResponse> {
    const res = await app().inject({ method: 'GET', url: URL, headers: bearer(d.token) });
    expect(res.statusCode, res.body).toBe(200);
    return json<AttentionResponse>(res);
  }
  const kinds = async (d: Registered) => (await attention(d)).Avisos.map((n) => n.tipo);

  async function newDriver(reais = 0): Promise<Registered> {
    const d = await registerDriver(app());
    await acceptTerms(app(), d);
    if (reais > 0) await fund(app(), d, reais);
    return d;
  }

  /** A toll passage (unguarded debit) of `cents`. */
  async function passage(d: Registered, cents: number, key: string): Promise<void> {
    await db()
      .kysely.transaction()
      .execute(async (trx) =>
        postEntry(trx, {
          accountId: await accountId(trx, d.id, 'own'),
          amountCents: -cents,
          origin: STATEMENT_ORIGINS.passage,
          placeName: 'Praça Avisos',
          idempotencyKey: `test:${d.id}:${key}`,
        }),
      );
  }

  /**
   * A tag blocked for its unpaid monthly fee, the way it happens (founding decision 13): active, the balance
   * spent by passages, then next month's billing cannot charge the fee and blocks it with 204.
   */
  async function feeBlockedTags(d: Registered, count: number): Promise<RegisteredTag[]> {
    const tags: RegisteredTag[] = [];
    for (let i = 0; i < count; i++) tags.push(await activeTag(app(), d));
    await passage(d, Math.round((await ownBalance(app(), d)) * 100) - 100, 'gasto');
    expect(await services().billing.run(new Date(Date.now() + 35 * DAY))).toMatchObject({ blocked: expect.any(Number) });
    for (const t of tags) expect(await tagStatus(app(), d, t.plate)).toBe(204);
    return tags;
  }

  it('needs a session', async () => {
    expect((await app().inject({ method: 'GET', url: URL })).statusCode).toBe(401);
  });

  it('a new driver: the balance below R$ 50,00 and no movements', async () => {
    const d = await newDriver();
    expect(await attention(d)).toEqual({
      Sucesso: true,
      Mensagem: serverMessages.attention.ok,
      Avisos: [{ tipo: 'saldo-baixo', Mensagem: serverMessages.attention.lowBalance(formatBrl(5000)), saldo: 0, nivelAlerta: 50 }],
      UltimasMovimentacoes: [],
    });
  });

  describe('saldo-baixo', () => {
    it('goes when a purchase takes the balance to the level, and follows the level the driver chooses', async () => {
      const d = await newDriver(100);
      await passage(d, 6000, 'p1');
      expect((await attention(d)).Avisos).toEqual([
        {
          tipo: 'saldo-baixo',
          Mensagem: `Seu saldo de pedágio está abaixo do seu nível de alerta (${formatBrl(5000)})`,
          saldo: 40,
          nivelAlerta: 50,
        },
      ]);
      await passage(d, -1000, 'p2'); // exactly the level: no warning
      expect(await kinds(d)).toEqual([]);

      const save = (nivelAlertaSaldo: number) =>
        app().inject({ method: 'POST', url: '/api/motorista/preferencias', headers: bearer(d.token), payload: { nivelAlertaSaldo } });
      expect((await save(200)).statusCode).toBe(200);
      const warned = (await attention(d)).Avisos;
      expect(warned).toEqual([
        { tipo: 'saldo-baixo', Mensagem: serverMessages.attention.lowBalance(formatBrl(20000)), saldo: 50, nivelAlerta: 200 },
      ]);
      expect(warned[0]?.Mensagem.replace(/\s/g, ' ')).toContain('R$ 200,00');
      await fund(app(), d, 150);
      expect(await kinds(d)).toEqual([]);

      // Level zero: only a negative balance warns, and it says that it is negative (issue 25).
      expect((await save(0)).statusCode).toBe(200);
      await passage(d, 20_000, 'p3');
      expect(await kinds(d)).toEqual([]);
      await passage(d, 1, 'p4');
      expect(await kinds(d)).toEqual(['saldo-negativo']);
    });
  });

  describe('saldo-negativo (issue 25)', () => {
    it('says the balance is negative and what the next passage and the month mean, instead of saldo-baixo, whatever the level', async () => {
      const d = await newDriver(100);
      await passage(d, 11_230, 'n1');
      const notices = (await attention(d)).Avisos;
      expect(notices).toEqual([
        {
          tipo: 'saldo-negativo',
          Mensagem: serverMessages.attention.negativeBalance(formatBrl(-1230), formatBrl(1590)),
          saldo: -12.3,
        },
      ]);
      const text = notices[0]?.Mensagem.replace(/\s/g, ' ');
      expect(text).toContain('está negativo (-R$ 12,30)');
      expect(text).toContain('As passagens continuam sendo debitadas');
      expect(text).toContain('mensalidade (R$ 15,90) é bloqueada');

      // A level above the balance does not bring saldo-baixo back beside it.
      const save = await app().inject({
        method: 'POST',
        url: '/api/motorista/preferencias',
        headers: bearer(d.token),
        payload: { nivelAlertaSaldo: 500 },
      });
      expect(save.statusCode).toBe(200);
      expect(await kinds(d)).toEqual(['saldo-negativo']);

      // Back to zero: no longer negative, only below the level of R$ 500,00; at the level, nothing.
      await passage(d, -1230, 'n2');
      expect(await kinds(d)).toEqual(['saldo-baixo']);
      await passage(d, -50_000, 'n3');
      expect(await kinds(d)).toEqual([]);
    });
  });

  describe('compra-pendente', () => {
    it('shows each Pix waiting for payment, the first to expire first; gone once paid or expired', async () => {
      const d = await newDriver(100);
      const first = await createCharge(app(), d, 120);
      const second = await createCharge(app(), d, 250.5);
      const third = await createCharge(app(), d, 300);
      // Created within the same few milliseconds: their times are set apart, the last one created expiring first.
      const expiry = new Map<string, string>();
      for (const [charge, minutes] of [
        [third, 10],
        [first, 20],
        [second, 30],
      ] as const) {
        const at = new Date(Date.now() + minutes * 60_000).toISOString();
        await db().kysely.updateTable('pix_charges').set({ expires_at: at }).where('id', '=', charge.id).execute();
        expiry.set(charge.id, at);
      }

      const notices = (await attention(d)).Avisos;
      expect(notices).toEqual([
        {
          tipo: 'compra-pendente',
          Mensagem: serverMessages.attention.pendingPurchase(formatBrl(30000)),
          cobrancaId: third.id,
          valor: 300,
          expiraEm: expiry.get(third.id),
        },
        {
          tipo: 'compra-pendente',
          Mensagem: `Sua compra de ${formatBrl(12000)} aguarda o pagamento do Pix`,
          cobrancaId: first.id,
          valor: 120,
          expiraEm: expiry.get(first.id),
        },
        {
          tipo: 'compra-pendente',
          Mensagem: serverMessages.attention.pendingPurchase(formatBrl(25050)),
          cobrancaId: second.id,
          valor: 250.5,
          expiraEm: expiry.get(second.id),
        },
      ]);

      // Paid: gone.
      expect((await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', first))).statusCode).toBe(200);
      // Past its time, still PENDING in the table (nobody looked at it since): gone.
      await db()
        .kysely.updateTable('pix_charges')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', third.id)
        .execute();
      expect((await attention(d)).Avisos.map((n) => n.tipo === 'compra-pendente' && n.cobrancaId)).toEqual([second.id]);
      // The provider's PAYMENT_OVERDUE: gone.
      expect((await sendWebhook(app(), paymentEvent('PAYMENT_OVERDUE', second))).statusCode).toBe(200);
      expect(await kinds(d)).toEqual([]);
    });
  });

  describe('tag-bloqueada', () => {
    it('names every tag blocked for an unpaid fee, by plate; gone once released (the fee paid); a tag the driver blocked is not one', async () => {
      const d = await newDriver();
      const blocked = await feeBlockedTags(d, 2);
      const byPlate = [...blocked].sort((x, y) => x.plate.localeCompare(y.plate));
      const notices = (await attention(d)).Avisos;
      expect(notices.slice(0, 2)).toEqual(
        byPlate.map((t) => ({
          tipo: 'tag-bloqueada',
          Mensagem: serverMessages.attention.tagBlockedForFee(t.plate),
          placa: t.plate,
          serialNumber: t.serial,
        })),
      );
      expect(notices[0]?.Mensagem).toBe(`A tag do veículo ${byPlate[0]?.plate} está bloqueada por falta de pagamento da mensalidade`);

      await fund(app(), d, 100);
      const [one, two] = blocked as [RegisteredTag, RegisteredTag];
      expect((await actions.release(app(), d, one.serial)).statusCode).toBe(200);
      expect((await attention(d)).Avisos).toEqual([
        {
          tipo: 'tag-bloqueada',
          Mensagem: serverMessages.attention.tagBlockedForFee(two.plate),
          placa: two.plate,
          serialNumber: two.serial,
        },
      ]);
      expect((await actions.release(app(), d, two.serial)).statusCode).toBe(200);
      expect(await kinds(d)).toEqual([]);

      // Blocked by the driver (200): not a fee to pay.
      expect((await actions.block(app(), d, one.serial)).statusCode).toBe(200);
      expect(await kinds(d)).toEqual([]);
    });
  });

  it('all at once, in order: blocked tags, the low balance, the pending purchases', async () => {
    const d = await newDriver();
    const [tag] = await feeBlockedTags(d, 1);
    const charge = await createCharge(app(), d, 100);
    const body = await attention(d);
    expect(body.Avisos.map((n) => n.tipo)).toEqual(['tag-bloqueada', 'saldo-baixo', 'compra-pendente']);
    expect(body.Avisos[0]).toMatchObject({ placa: tag?.plate });
    expect(body.Avisos[1]).toMatchObject({ saldo: 1, nivelAlerta: 50 });
    expect(body.Avisos[2]).toMatchObject({ cobrancaId: charge.id, valor: 100 });
  });

  it('UltimasMovimentacoes: the 3 newest statement entries, as the statement shows them', async () => {
    const d = await newDriver(100);
    for (let i = 1; i <= 4; i++) await passage(d, 100 * i, `m${i}`);
    const body = await attention(d);
    const statement = json<StatementResponse>(
      await app().inject({ method: 'GET', url: '/api/extrato/listar?page=1', headers: bearer(d.token) }),
    );
    expect(body.UltimasMovimentacoes).toHaveLength(3);
    expect(body.UltimasMovimentacoes).toEqual(statement.Transacoes.slice(0, 3));
    expect(body.UltimasMovimentacoes.map((t) => t.value)).toEqual([-4, -3, -2]);
  });

  it("nothing of another driver's: their blocked tag, low balance, pending Pix and movements stay theirs", async () => {
    const a = await newDriver(500);
    const b = await newDriver();
    const [bTag] = await feeBlockedTags(b, 1);
    const bCharge = await createCharge(app(), b, 130);
    expect(await kinds(b)).toEqual(['tag-bloqueada', 'saldo-baixo', 'compra-pendente']);
    const res = await app().inject({ method: 'GET', url: URL, headers: bearer(a.token) });
    const body = json<AttentionResponse>(res);
    expect(body.Avisos).toEqual([]);
    expect(body.UltimasMovimentacoes.map((t) => t.value)).toEqual([500]);
    for (const secret of [bTag?.serial ?? '-', bTag?.plate ?? '-', bCharge.id, b.cpfCnpj, 'Praça Avisos'])
      expect(res.body).not.toContain(secret);
  });
});
