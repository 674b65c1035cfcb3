import { allAtOnce, byNumericId, byTimeAndId, countOf, countRows, DATA_CHUNK_ROWS, type KindsOf, iso, reais } from './pages.js';

/** The driver's account in the ZIP: the profile, terms, sessions and access records, Pix keys, limits, devices and notices. */
export const ACCOUNT_KINDS: KindsOf<'profile' | 'terms' | 'sessions' | 'access' | 'pixKeys' | 'payoutLimits' | 'pushDevices' | 'notices'> =
  {
    profile: {
      tables: ['drivers', 'profile_changes'],
      count: async () => 1,
      async *records(db, driverId) {
        const driver = await db
          .selectFrom('drivers')
          .select(['id', 'name', 'cpf_cnpj', 'phone_number', 'created_at', 'balance_alert_cents'])
          .where('id', '=', driverId)
          .executeTakeFirstOrThrow();
        const balances = await db.selectFrom('accounts').select(['kind', 'balance_cents']).where('driver_id', '=', driverId).execute();
        const changes = await db
          .selectFrom('profile_changes')
          .select(['fields', 'changed_at'])
          .where('driver_id', '=', driverId)
          .orderBy('id')
          .execute();
        const balanceOf = (kind: string) => reais(balances.find((b) => b.kind === kind)?.balance_cents ?? 0);
        yield [
          {
            id: driver.id,
            nome: driver.name,
            cpfCnpj: driver.cpf_cnpj,
            telefone: driver.phone_number,
            cadastradoEm: iso(driver.created_at),
            nivelAlertaSaldo: reais(driver.balance_alert_cents),
            saldos: { saldo: balanceOf('own'), saldoTerceiro: balanceOf('third'), vpo: balanceOf('vpo') },
            correcoes: changes.map((c) => ({ campos: c.fields.split(','), em: iso(c.changed_at) })),
          },
        ];
      },
    },
    terms: {
      tables: ['term_decisions'],
      count: countRows('term_decisions'),
      records: (db, driverId) =>
        byNumericId(
          (after) =>
            db
              .selectFrom('term_decisions')
              .innerJoin('terms', 'terms.id', 'term_decisions.term_id')
              .select(['term_decisions.id', 'terms.version', 'terms.file_name', 'term_decisions.action', 'term_decisions.decided_at'])
              .where('term_decisions.driver_id', '=', driverId)
              .where('term_decisions.id', '>', after)
              .orderBy('term_decisions.id')
              .limit(DATA_CHUNK_ROWS)
              .execute(),
          (r) => ({ versao: r.version, arquivo: r.file_name, decisao: r.action, em: iso(r.decided_at) }),
        ),
    },
    sessions: {
      tables: ['sessions'],
      count: (db, driverId, since) =>
        countOf(
          db
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('driver_id', '=', driverId)
            .where('created_at', '>=', since),
        ),
      records: (db, driverId, since) =>
        byNumericId(
          (after) =>
            db
              .selectFrom('sessions')
              // Never the token's hash: it proves nothing about the driver and guards the session.
              .select(['id', 'created_at', 'expires_at', 'revoked_at'])
              .where('driver_id', '=', driverId)
              .where('created_at', '>=', since)
              .where('id', '>', after)
              .orderBy('id')
              .limit(DATA_CHUNK_ROWS)
              .execute(),
          (r) => ({ id: Number(r.id), iniciadaEm: iso(r.created_at), validaAte: iso(r.expires_at), encerradaEm: iso(r.revoked_at) }),
        ),
    },
    access: {
      tables: ['access_records'],
      count: (db, driverId, since) =>
        countOf(
          db
            .selectFrom('access_records')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('driver_id', '=', driverId)
            .where('occurred_at', '>=', since),
        ),
      records: (db, driverId, since) =>
        byTimeAndId(
          (after) =>
            db
              .selectFrom('access_records')
              .select(['id', 'action', 'ip_address', 'occurred_at'])
              .where('driver_id', '=', driverId)
              .where('occurred_at', '>=', since)
              .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('occurred_at', 'id'), '>', eb.tuple(after![0], after![1]))))
              .orderBy('occurred_at')
              .orderBy('id')
              .limit(DATA_CHUNK_ROWS)
              .execute(),
          (r) => r.occurred_at,
          (r) => ({ acao: r.action, enderecoIp: r.ip_address, em: iso(r.occurred_at) }),
        ),
    },
    pixKeys: {
      tables: ['pix_keys'],
      count: countRows('pix_keys'),
      records: (db, driverId) =>
        allAtOnce(
          () =>
            db.selectFrom('pix_keys').select(['key_type', 'key', 'created_at']).where('driver_id', '=', driverId).orderBy('id').execute(),
          (r) => ({ tipo: r.key_type, chave: r.key, salvaEm: iso(r.created_at) }),
        ),
    },
    payoutLimits: {
      tables: ['payout_limits'],
      count: countRows('payout_limits'),
      records: (db, driverId) =>
        allAtOnce(
          () =>
            db
              .selectFrom('payout_limits')
              .select(['kind', 'value_cents', 'pending_cents', 'pending_at'])
              .where('driver_id', '=', driverId)
              .orderBy('kind')
              .execute(),
          (r) => ({ limite: r.kind, valor: reais(r.value_cents), aumentoPedido: reais(r.pending_cents), aumentoValeEm: iso(r.pending_at) }),
        ),
    },
    pushDevices: {
      tables: ['push_subscriptions'],
      count: countRows('push_subscriptions'),
      records: (db, driverId) =>
        allAtOnce(
          () =>
            db
              .selectFrom('push_subscriptions')
              // Not p256dh and auth: the keys that encrypt each notification to the device.
              .select(['id', 'endpoint', 'created_at', 'last_success_at'])
              .where('driver_id', '=', driverId)
              .orderBy('id')
              .execute(),
          (r) => ({
            id: Number(r.id),
            servicoDeNotificacao: new URL(r.endpoint).origin,
            cadastradoEm: iso(r.created_at),
            ultimoEnvioEm: iso(r.last_success_at),
          }),
        ),
    },
    notices: {
      tables: ['notification_outbox'],
      count: countRows('notification_outbox'),
      records: (db, driverId) =>
        byNumericId(
          (after) =>
            db
              .selectFrom('notification_outbox')
              .select(['id', 'kind', 'payload', 'created_at', 'sent_at', 'gave_up_at'])
              .where('driver_id', '=', driverId)
              .where('id', '>', after)
              .orderBy('id')
              .limit(DATA_CHUNK_ROWS)
              .execute(),
          (r) => ({
            tipo: r.kind,
            aviso: JSON.parse(r.payload) as unknown,
            criadoEm: iso(r.created_at),
            enviadoEm: iso(r.sent_at),
            naoEntregueEm: iso(r.gave_up_at),
          }),
        ),
    },
  };
