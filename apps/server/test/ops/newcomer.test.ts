import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { formatBrl } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner } from '../../src/cli/partners.js';
import { openDb } from '../../src/db/connection.js';
import { DEMO_DRIVER } from '../../src/startup/demo-seed.js';
import { bearer, json, registerDriver, TEST_PRIVACY_OFFICER_ENV, TEST_VAPID_ENV, useTestApp } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';
import { createCharge, ownBalance, paymentEvent } from '../helpers/pix.js';
import { buildServer, overHttp, PROCESS_WEBHOOK_TOKEN, request, startServer, stopServer } from '../helpers/server-process.js';
import type { ServerProcess } from '../helpers/server-process.js';

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 3_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** This machine's addresses other than loopback (the "other address" a neighbour would use). */
const otherAddresses = Object.values(os.networkInterfaces())
  .flat()
  .filter((a): a is os.NetworkInterfaceInfo => a !== undefined && !a.internal && a.family === 'IPv4')
  .map((a) => a.address);

describe('issue 33, point 8: the newcomer starts a development server and pays a Pix from another terminal', () => {
  let server: { main: string; remove: () => void };
  let running: ServerProcess | undefined;
  let dir = '';
  let databaseUrl = '';

  beforeAll(async () => {
    server = await buildServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-newcomer-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
    databaseUrl = `file:${path.join(dir, 'portal.sqlite')}`;
    // As `npm start` in development: no HOST, the demo driver, the development tokens.
    running = await startServer(server.main, {
      NODE_ENV: 'development',
      HOST: undefined,
      DEMONSTRATION: undefined,
      PIX_WEBHOOK_TOKEN: undefined,
      VAPID_PUBLIC_KEY: undefined,
      VAPID_PRIVATE_KEY: undefined,
      VAPID_SUBJECT: undefined,
      DEMO_SEED: 'true',
      DATABASE_URL: databaseUrl,
      WEB_DIST: dir,
    });
  }, 120_000);

  afterAll(async () => {
    await stopServer(running);
    server.remove();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 only, and the start line says where', async () => {
    const port = running!.port;
    expect(running!.output()).toContain(
      `Portal do Motorista em http://127.0.0.1:${port} (só nesta máquina; para abrir à rede, HOST=0.0.0.0)`,
    );
    expect(await accepts('127.0.0.1', port)).toBe(true);
    for (const address of otherAddresses) expect(await accepts(address, port), address).toBe(false);
  });

  it("pix:pay without an id, and without PORT, pays the demo driver's newest waiting charge through that server, and says which", async () => {
    const app = overHttp(running!.url);
    const login = await app.inject({
      method: 'POST',
      url: '/api/tokens/login-motorista',
      payload: { cpfCnpj: DEMO_DRIVER.cpfCnpj, password: DEMO_DRIVER.password },
    });
    expect(login.statusCode, login.body).toBe(200);
    const demo = { id: 0, token: json<{ Token: string }>(login).Token, cpfCnpj: DEMO_DRIVER.cpfCnpj, password: DEMO_DRIVER.password };
    await app.inject({ method: 'POST', url: '/api/termos/aceitar', headers: bearer(demo.token) });
    const before = await ownBalance(app, demo);
    const older = await createCharge(app, demo, 120);
    const newest = await createCharge(app, demo, 150);
    // A development server's answer carries the command to paste (the purchase screen shows it).
    expect(newest).toMatchObject({ pagarNoTerminal: `npm run cli -- pix:pay ${newest.id}` });

    // The CLI is given the database only: the address is the one the server wrote beside it.
    const paid = await runCli(['pix:pay'], { DATABASE_URL: databaseUrl });
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.stdout).toContain(`é ${newest.id}.`);
    expect(paid.stdout).toContain(`PAYMENT_RECEIVED enviado para a cobrança ${newest.id} (${formatBrl(15_000)}): Evento processado`);
    expect(await ownBalance(app, demo)).toBe(before + 150);
    const second = await runCli(['pix:pay'], { DATABASE_URL: databaseUrl });
    expect(second.stdout).toContain(`é ${older.id}.`);
    expect(await ownBalance(app, demo)).toBe(before + 270);
    const none = await runCli(['pix:pay'], { DATABASE_URL: databaseUrl });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Nenhuma cobrança Pix aguardando pagamento do motorista de demonstração');
    // PORT, as the server reads it, wins over the address written.
    const elsewhere = await runCli(['pix:pay', newest.id], { DATABASE_URL: databaseUrl, PORT: '9' });
    expect(elsewhere.stderr).toContain('O servidor não respondeu em http://127.0.0.1:9');
  });
});

describeEachDatabase('decision 61: only a development server sends the command that pays a charge', (dialect) => {
  const development = useTestApp(dialect, { NODE_ENV: 'development' });
  const production = useTestApp(dialect, {
    NODE_ENV: 'production',
    DEMONSTRATION: 'true',
    PIX_WEBHOOK_TOKEN: PROCESS_WEBHOOK_TOKEN,
    ...TEST_VAPID_ENV,
    ...TEST_PRIVACY_OFFICER_ENV,
  });

  it('development: in the charge made and the charge read; production and tests: never', async () => {
    const d = await registerDriver(development().app);
    const made = await createCharge(development().app, d, 100);
    expect(made).toMatchObject({ pagarNoTerminal: `npm run cli -- pix:pay ${made.id}` });
    const read = await development().app.inject({ method: 'GET', url: `/api/transacoes/qrcode/${made.id}`, headers: bearer(d.token) });
    expect(json(read)).toMatchObject({ qrCode: { pagarNoTerminal: `npm run cli -- pix:pay ${made.id}` } });

    const p = await registerDriver(production().app);
    const charge = await createCharge(production().app, p, 100);
    expect(charge).not.toHaveProperty('pagarNoTerminal');
    const again = await production().app.inject({ method: 'GET', url: `/api/transacoes/qrcode/${charge.id}`, headers: bearer(p.token) });
    expect(JSON.stringify(json(again))).not.toContain('pix:pay');
  });
});

describeEachDatabase('issue 33, point 8: the CLI writing while the server settles payments: no 5xx', (dialect) => {
  let server: { main: string; remove: () => void };
  let running: ServerProcess | undefined;
  let database: TestDatabase;
  let dir = '';

  beforeAll(async () => {
    server = await buildServer();
    database = await createTestDatabase(dialect);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-busy-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
    running = await startServer(server.main, { DATABASE_URL: database.url, WEB_DIST: dir });
  }, 120_000);

  afterAll(async () => {
    await stopServer(running);
    server.remove();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('payment webhooks posted while CLI processes write to the same database all answer 2xx, and every credit lands once', async () => {
    const app = overHttp(running!.url);
    const drivers = await Promise.all([0, 1, 2].map(() => registerDriver(app)));
    const charges: { d: (typeof drivers)[number]; charge: { id: string; valor: number } }[] = [];
    const env = { DATABASE_URL: database.url, SERVER_URL: running!.url };
    const statuses: number[] = [];
    const post = async (charge: { id: string; valor: number }) => {
      const res = await request(running!.url, {
        method: 'POST',
        url: '/api/webhooks/asaas',
        headers: { 'asaas-access-token': PROCESS_WEBHOOK_TOKEN },
        payload: paymentEvent('PAYMENT_RECEIVED', charge),
      });
      statuses.push(res.statusCode);
    };
    // The CLI's writes, from processes other than the server's: two spawned as an operator runs them, and
    // the same command's code on this test process's own connection, one write after another, until the
    // server has made and settled 20 rounds of charges (three drivers at once).
    let serving = true;
    const spawned = Promise.all(
      [0, 1].map((i) =>
        runCli(['partner:create', '--kind', 'operator', '--name', `Operadora concorrente ${i}`, '--operator', 'SemParar'], env),
      ),
    );
    const cliDb = openDb(database.url);
    let written = 0;
    const writer = (async () => {
      while (serving) {
        await createPartner(cliDb, ['--kind', 'platform', '--name', `Plataforma ${written}`]);
        written += 1;
        // better-sqlite3 answers at once: without a pause the loop would starve this process's HTTP calls.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    for (let round = 0; round < 20; round += 1) {
      await Promise.all(
        drivers.map(async (d) => {
          const charge = await createCharge(app, d, 100 + charges.length);
          charges.push({ d, charge });
          await post(charge);
        }),
      );
    }
    serving = false;
    await writer;
    await cliDb.kysely.destroy();
    const results = await spawned;
    expect(written).toBeGreaterThan(20);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses).toHaveLength(charges.length);
    for (const [i, d] of drivers.entries()) {
      const expected = charges.filter((c) => c.d === d).reduce((sum, c) => sum + c.charge.valor, 0);
      expect(await ownBalance(app, d), `motorista ${i}`).toBe(expected);
    }
  }, 180_000);
});
