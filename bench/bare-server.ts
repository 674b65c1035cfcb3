// The baselines of the hot-path bench, each a bare Fastify app (no hooks, no schemas, no log):
//   BARE_MODE=constant  GET /api/motorista/saldo returns a constant of the balance call's shape;
//   BARE_MODE=by-hand   the balance call's work written by hand against the portal's database
//                       (DATABASE_URL): the session by its token's hash, then the two balances,
//                       with prepared statements (better-sqlite3, or named pg statements).
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

const message = 'Saldo consultado com sucesso';
const app = Fastify({ logger: false });

type Balances = (token: string) => Promise<{ own: number; third: number } | null>;

function sqliteBalances(file: string): Balances {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  const session = db.prepare(
    `select d.id as id from sessions s join drivers d on d.id = s.driver_id
     where s.token_hash = ? and s.revoked_at is null and s.expires_at > ?`,
  );
  const accounts = db.prepare('select kind, balance_cents from accounts where driver_id = ?');
  return async (token) => {
    const row = session.get(createHash('sha256').update(token).digest('hex'), new Date().toISOString()) as { id: number } | undefined;
    if (!row) return null;
    const result = { own: 0, third: 0 };
    for (const a of accounts.all(row.id) as { kind: 'own' | 'third'; balance_cents: number }[]) result[a.kind] = Number(a.balance_cents);
    return result;
  };
}

function postgresBalances(url: string): Balances {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (token) => {
    const session = await pool.query<{ id: number }>({
      name: 'session',
      text: `select d.id as id from sessions s join drivers d on d.id = s.driver_id
             where s.token_hash = $1 and s.revoked_at is null and s.expires_at > $2`,
      values: [createHash('sha256').update(token).digest('hex'), new Date().toISOString()],
    });
    const row = session.rows[0];
    if (!row) return null;
    const accounts = await pool.query<{ kind: 'own' | 'third'; balance_cents: string }>({
      name: 'accounts',
      text: 'select kind, balance_cents from accounts where driver_id = $1',
      values: [row.id],
    });
    const result = { own: 0, third: 0 };
    for (const a of accounts.rows) result[a.kind] = Number(a.balance_cents);
    return result;
  };
}

if (process.env.BARE_MODE === 'by-hand') {
  const url = process.env.DATABASE_URL ?? '';
  const balances = /^postgres(ql)?:\/\//.test(url) ? postgresBalances(url) : sqliteBalances(url);
  app.get('/api/motorista/saldo', async (req, reply) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const b = match ? await balances(match[1]!) : null;
    if (!b) return reply.code(401).send({ Sucesso: false, Mensagem: 'Não autenticado' });
    return { Sucesso: true, Mensagem: message, Saldo: b.own / 100, SaldoTerceiro: b.third / 100 };
  });
} else {
  const body = { Sucesso: true, Mensagem: message, Saldo: 0, SaldoTerceiro: 0 };
  app.get('/api/motorista/saldo', async () => body);
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('bare server ready');
