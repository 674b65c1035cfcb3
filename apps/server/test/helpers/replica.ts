import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A real PostgreSQL streaming replica of the local primary, for tests of reads routed to a
 * replica: it lags when its replay is paused and refuses connections when stopped.
 *
 * Built with Debian's binaries of the primary's major version (/usr/lib/postgresql/<major>/bin):
 * pg_basebackup -R -X stream copies the whole cluster into a temporary directory owned by the
 * postgres user (the server refuses to run as root), and pg_ctl starts it as a hot standby on a
 * free loopback port, its socket in that directory. No replication slot outlives the backup
 * (pg_basebackup's own is temporary and dies with its connection), so a crashed test never pins
 * WAL on the primary; the price is that a replica stopped for long may find the WAL it needs
 * recycled, and catchUp then times out.
 *
 * The primary must accept replication connections from 127.0.0.1 for the user of its URL; Debian's
 * default pg_hba.conf has no such line. Needed, before any "reject" line for replication:
 *
 *   host replication postgres 127.0.0.1/32 trust
 *
 * When we are root and no line matches, startReplica appends it to the running cluster's hba file
 * (SHOW hba_file) and reloads the configuration: test machines and CI only.
 */

export interface Replica {
  /** postgres://postgres@127.0.0.1:<port>/<database> for a database name (the same databases as the primary). */
  urlOf(database: string): string;
  port: number;
  /** Stops WAL replay (pg_wal_replay_pause): the replica falls behind while it keeps answering. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary had written when called (compare pg_current_wal_lsn on the primary with pg_last_wal_replay_lsn on the replica), at most timeoutMs. */
  catchUp(timeoutMs?: number): Promise<void>;
  /** Stops the server (fast or immediate shutdown): connections to it fail. */
  stop(): Promise<void>;
  /** Starts it again after stop(). */
  start(): Promise<void>;
  /** Stops it and removes its data directory. Safe to call twice. */
  destroy(): Promise<void>;
}

const DEFAULT_PRIMARY_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DEBIAN_LIB = '/usr/lib/postgresql';
const RUNUSER = '/usr/sbin/runuser';
const TOOLS = ['pg_basebackup', 'pg_ctl', 'postgres'];
const DIR_PREFIX = 'portal-replica-';
const HBA_LINE = (user: string) => `host replication ${user} 127.0.0.1/32 trust`;

const execFileAsync = promisify(execFile);

function postgresUser(): { uid: number; gid: number } | null {
  try {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return null;
  }
}

function installedMajors(): string[] {
  try {
    return fs
      .readdirSync(DEBIAN_LIB)
      .filter((v) => /^\d+$/.test(v) && TOOLS.every((tool) => fs.existsSync(path.join(DEBIAN_LIB, v, 'bin', tool))));
  } catch {
    return [];
  }
}

const isRoot = process.getuid?.() === 0;
const owner = postgresUser();
const runningAsPostgres = owner !== null && process.getuid?.() === owner.uid;

export const replicaAvailable: boolean =
  installedMajors().length > 0 && owner !== null && (runningAsPostgres || (isRoot && fs.existsSync(RUNUSER)));

/** A PostgreSQL tool run as the postgres user; rejects with its stderr. */
async function runTool(binDir: string, tool: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const file = path.join(binDir, tool);
  const [command, argv] = runningAsPostgres ? [file, args] : [RUNUSER, ['-u', 'postgres', '--', file, ...args]];
  try {
    const { stdout } = await execFileAsync(command, argv, { cwd: '/', env, encoding: 'utf8', timeout: 120_000 });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`${tool} falhou: ${stderr.trim() || (error as Error).message}`);
  }
}

function runToolSync(binDir: string, tool: string, args: string[]): void {
  const file = path.join(binDir, tool);
  const [command, argv] = runningAsPostgres ? [file, args] : [RUNUSER, ['-u', 'postgres', '--', file, ...args]];
  execFileSync(command, argv, { cwd: '/', stdio: 'ignore', timeout: 30_000 });
}

async function query<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function tail(file: string, chars = 3_000): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}

interface HbaRule {
  type: string;
  database: string[] | null;
  user_name: string[] | null;
  address: string | null;
  netmask: string | null;
  auth_method: string | null;
}

function ipv4(text: string | null): number | null {
  const parts = (text ?? '').split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return null;
  return parts.reduce((n, p) => n * 256 + p, 0);
}

/** The rule pg_hba.conf applies to a replication connection from 127.0.0.1 (the first one that matches), if any. */
function replicationRule(rules: HbaRule[], user: string, ssl: boolean): HbaRule | undefined {
  const loopback = ipv4('127.0.0.1') ?? 0;
  return rules.find((r) => {
    if (!(r.type === 'host' || r.type === (ssl ? 'hostssl' : 'hostnossl'))) return false;
    if (!r.database?.includes('replication')) return false;
    if (!(r.user_name?.includes('all') || r.user_name?.includes(user))) return false;
    if (r.address === 'all' || r.address === 'samehost' || r.address === 'samenet' || r.address === 'localhost') return true;
    const address = ipv4(r.address);
    const mask = ipv4(r.netmask);
    return address !== null && mask !== null && (address & mask) >>> 0 === (loopback & mask) >>> 0;
  });
}

interface PrimaryFacts {
  major: number;
  walLevel: string;
  maxWalSenders: number;
  hbaFile: string;
  ssl: boolean;
  /** Hot standby refuses to start with less of these than the primary has. */
  standbyMinimums: Record<string, string>;
  tablespaces: string[];
}

async function primaryFacts(url: string): Promise<PrimaryFacts> {
  const [settings] = await query<Record<string, string>>(
    url,
    `select current_setting('server_version_num') as version, current_setting('wal_level') as wal_level,
            current_setting('max_wal_senders') as max_wal_senders, current_setting('hba_file') as hba_file,
            current_setting('ssl') as ssl, current_setting('max_connections') as max_connections,
            current_setting('max_worker_processes') as max_worker_processes,
            current_setting('max_prepared_transactions') as max_prepared_transactions,
            current_setting('max_locks_per_transaction') as max_locks_per_transaction`,
  );
  if (!settings) throw new Error('réplica: o primário não respondeu às configurações');
  const tablespaces = await query<{ location: string }>(
    url,
    "select pg_tablespace_location(oid) as location from pg_tablespace where spcname not in ('pg_default', 'pg_global')",
  );
  const setting = (name: string) => settings[name] ?? '';
  return {
    major: Math.floor(Number(setting('version')) / 10_000),
    walLevel: setting('wal_level'),
    maxWalSenders: Number(setting('max_wal_senders')),
    hbaFile: setting('hba_file'),
    ssl: setting('ssl') === 'on',
    standbyMinimums: Object.fromEntries(
      ['max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction'].map(
        (name) => [name, setting(name)],
      ),
    ),
    tablespaces: tablespaces.map((t) => t.location),
  };
}

/** Makes sure the primary takes a replication connection from 127.0.0.1, adding the trust line when we are root. */
async function ensureReplicationAllowed(url: URL, facts: PrimaryFacts): Promise<void> {
  const user = decodeURIComponent(url.username) || 'postgres';
  const rules = await query<HbaRule>(
    url.toString(),
    'select type, database, user_name, address, netmask, auth_method from pg_hba_file_rules where error is null order by line_number',
  );
  const rule = replicationRule(rules, user, facts.ssl);
  if (rule) {
    const usable =
      rule.auth_method === 'trust' || (url.password !== '' && ['md5', 'scram-sha-256', 'password'].includes(rule.auth_method ?? ''));
    if (!usable) {
      throw new Error(
        `réplica: ${facts.hbaFile} responde a conexões de replicação de 127.0.0.1 com "${rule.auth_method}"; ponha antes dela: ${HBA_LINE(user)}`,
      );
    }
    return;
  }
  if (!isRoot || !fs.existsSync(facts.hbaFile)) {
    throw new Error(
      `réplica: ${facts.hbaFile} não aceita replicação de 127.0.0.1; acrescente "${HBA_LINE(user)}" e recarregue (select pg_reload_conf())`,
    );
  }
  // Re-read just before writing: another test file may have added it a moment ago.
  const text = fs.readFileSync(facts.hbaFile, 'utf8');
  if (!text.split('\n').some((line) => line.trim().split(/\s+/).join(' ') === HBA_LINE(user))) {
    fs.appendFileSync(facts.hbaFile, `${text.endsWith('\n') || text === '' ? '' : '\n'}${HBA_LINE(user)}\n`);
  }
  await query(url.toString(), 'select pg_reload_conf()');
}

interface Live {
  binDir: string;
  dataDir: string;
  root: string;
}

const live = new Set<Live>();
let exitHookInstalled = false;

function killNow(replica: Live): void {
  try {
    if (fs.existsSync(path.join(replica.dataDir, 'postmaster.pid'))) {
      runToolSync(replica.binDir, 'pg_ctl', ['-D', replica.dataDir, '-m', 'immediate', '-w', '-t', '10', 'stop']);
    }
  } catch {
    killPostmaster(replica.dataDir);
  }
  fs.rmSync(replica.root, { recursive: true, force: true });
}

function killPostmaster(dataDir: string): void {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGQUIT');
  } catch {
    // Already gone.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const replica of live) killNow(replica);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Replicas left by test processes that died without cleaning up (SIGKILL, a crashed worker). */
function reapOrphans(binDir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith(DIR_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const root = path.join(os.tmpdir(), name);
    let ownerPid: number;
    try {
      ownerPid = Number(fs.readFileSync(path.join(root, 'owner'), 'utf8'));
    } catch {
      continue;
    }
    if (!(ownerPid > 0) || alive(ownerPid)) continue;
    killNow({ binDir, dataDir: path.join(root, 'data'), root });
  }
}

function serverOptions(port: number, root: string, minimums: Record<string, string>): string {
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    cluster_name: `${DIR_PREFIX}${port}`,
    shared_buffers: '32MB',
    fsync: 'off',
    hot_standby: 'on',
    hot_standby_feedback: 'off',
    // Paused replay must not cancel the queries that read the stale data.
    max_standby_streaming_delay: '-1',
    max_standby_archive_delay: '-1',
    // After start() the standby retries the primary every 200 ms instead of every 5 s.
    wal_retrieve_retry_interval: '200ms',
    archive_mode: 'off',
    logging_collector: 'off',
    autovacuum: 'off',
    ...minimums,
  };
  const quoted = root.replaceAll("'", "'\\''");
  // pg_ctl hands these to /bin/sh.
  return [`-p ${port}`, `-k '${quoted}'`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
}

/** Stops the cluster at once and removes its folder; a second call waits for the first. */
function removal(handle: Live): () => Promise<void> {
  let removed: Promise<void> | null = null;
  return () =>
    (removed ??= (async () => {
      live.delete(handle);
      if (fs.existsSync(path.join(handle.dataDir, 'postmaster.pid'))) {
        await runTool(handle.binDir, 'pg_ctl', ['-D', handle.dataDir, '-m', 'immediate', '-w', '-t', '10', 'stop']).catch(() =>
          killPostmaster(handle.dataDir),
        );
      }
      fs.rmSync(handle.root, { recursive: true, force: true });
    })());
}

/**
 * Starts the postmaster on a free port (`start` with it); another process may take the port
 * between freePort() and the bind, so a refused bind tries another, five times at most.
 */
async function onFreePort(dataDir: string, logFile: string, start: (port: number) => Promise<void>): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await start(port);
      return port;
    } catch (error) {
      const log = tail(logFile);
      if (attempt >= 5 || !/could not bind|already in use|could not create lock file/i.test(log)) {
        throw new Error(`${(error as Error).message}\n${log}`);
      }
      killPostmaster(dataDir);
    }
  }
}

function chownToPostgres(file: string): void {
  if (isRoot && owner) fs.chownSync(file, owner.uid, owner.gid);
}

export async function startReplica(options?: { primaryUrl?: string }): Promise<Replica> {
  if (!replicaAvailable)
    throw new Error('réplica: sem binários do PostgreSQL em /usr/lib/postgresql ou sem como rodar como o usuário postgres');
  const primaryUrl = new URL(options?.primaryUrl ?? DEFAULT_PRIMARY_URL);
  const facts = await primaryFacts(primaryUrl.toString());
  const binDir = path.join(DEBIAN_LIB, String(facts.major), 'bin');
  if (!installedMajors().includes(String(facts.major))) {
    throw new Error(`réplica: o primário é PostgreSQL ${facts.major}, mas ${binDir} não tem ${TOOLS.join(', ')}`);
  }
  if (!['replica', 'logical'].includes(facts.walLevel) || facts.maxWalSenders < 2) {
    throw new Error(
      `réplica: o primário precisa de wal_level=replica e max_wal_senders >= 2 (tem ${facts.walLevel} e ${facts.maxWalSenders}); mudar exige reiniciá-lo`,
    );
  }
  const loopbackPrimary = ['127.0.0.1', 'localhost'].includes(primaryUrl.hostname);
  if (loopbackPrimary) await ensureReplicationAllowed(primaryUrl, facts);
  reapOrphans(binDir);

  const root = fs.mkdtempSync(path.join(os.tmpdir(), DIR_PREFIX));
  fs.writeFileSync(path.join(root, 'owner'), String(process.pid));
  fs.chmodSync(root, 0o700);
  chownToPostgres(root);
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'replica.log');
  const handle: Live = { binDir, dataDir, root };
  live.add(handle);
  installExitHook();

  const user = decodeURIComponent(primaryUrl.username) || 'postgres';
  const database = decodeURIComponent(primaryUrl.pathname.slice(1)) || 'postgres';
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (primaryUrl.password) env.PGPASSWORD = decodeURIComponent(primaryUrl.password);
  let port = 0;
  const destroy = removal(handle);

  const pgCtlStart = () =>
    runTool(binDir, 'pg_ctl', [
      '-D',
      dataDir,
      '-l',
      logFile,
      '-w',
      '-t',
      '30',
      '-o',
      serverOptions(port, root, facts.standbyMinimums),
      'start',
    ]);

  try {
    const backup = [
      ...['-h', primaryUrl.hostname, '-p', primaryUrl.port || '5432', '-U', user, '-D', dataDir],
      ...['-R', '-X', 'stream', '--checkpoint=fast', '--no-sync'],
      ...(facts.major >= 13 ? ['--no-manifest'] : []),
      ...facts.tablespaces.map((location, i) => `--tablespace-mapping=${location}=${path.join(root, `tablespace-${i}`)}`),
    ];
    // Right after pg_reload_conf() the postmaster may not have re-read pg_hba.conf yet.
    for (let attempt = 1; ; attempt++) {
      try {
        await runTool(binDir, 'pg_basebackup', backup, env);
        break;
      } catch (error) {
        if (attempt >= 20 || !(error as Error).message.includes('pg_hba.conf')) throw error;
        fs.rmSync(dataDir, { recursive: true, force: true });
        await sleep(100);
      }
    }
    // Debian keeps the configuration in /etc/postgresql, so the copy has none of its own.
    const files = {
      'postgresql.conf': '# Settings come on the command line (test/helpers/replica.ts).\n',
      'pg_hba.conf': 'local all all trust\nhost all all 127.0.0.1/32 trust\n',
      'pg_ident.conf': '',
    };
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(dataDir, name);
      fs.writeFileSync(file, text, { mode: 0o600 });
      chownToPostgres(file);
    }
    port = await onFreePort(dataDir, logFile, async (free) => {
      port = free;
      await pgCtlStart();
    });
  } catch (error) {
    await destroy();
    throw error;
  }

  const urlOf = (name: string) => `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(name)}`;
  const adminUrl = () => urlOf(database);

  return {
    urlOf,
    port,
    pauseReplay: async () => {
      await query(adminUrl(), 'select pg_wal_replay_pause()');
    },
    resumeReplay: async () => {
      await query(adminUrl(), 'select pg_wal_replay_resume()');
    },
    catchUp: async (timeoutMs = 10_000) => {
      const [target] = await query<{ lsn: string }>(primaryUrl.toString(), 'select pg_current_wal_lsn()::text as lsn');
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        try {
          const [row] = await query<{ replayed: string | null; done: boolean | null }>(
            adminUrl(),
            'select pg_last_wal_replay_lsn()::text as replayed, pg_last_wal_replay_lsn() >= $1::pg_lsn as done',
            [target?.lsn],
          );
          if (row?.done) return;
          last = `replay em ${row?.replayed ?? 'nada'}`;
        } catch (error) {
          last = (error as Error).message;
        }
        if (Date.now() >= deadline) {
          throw new Error(`réplica não alcançou ${target?.lsn} do primário em ${timeoutMs} ms (${last})\n${tail(logFile)}`);
        }
        await sleep(50);
      }
    },
    stop: async () => {
      if (!fs.existsSync(path.join(dataDir, 'postmaster.pid'))) return;
      try {
        await runTool(binDir, 'pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '10', 'stop']);
      } catch {
        await runTool(binDir, 'pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', '-t', '10', 'stop']);
      }
    },
    start: async () => {
      try {
        await pgCtlStart();
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${tail(logFile)}`);
      }
    },
    destroy,
  };
}

/** A PostgreSQL cluster of the test's own, to be the replica's primary. */
export interface Primary {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  urlOf(database: string): string;
  port: number;
  /** Stops it and removes its data directory. Safe to call twice. */
  destroy(): Promise<void>;
}

/**
 * A primary of the test's own (initdb in a temporary folder, started as postgres on a free port,
 * replication allowed from 127.0.0.1): its base backup is a few megabytes whatever the machine's
 * shared cluster holds (the benches' databases, other test files' databases), and nothing of the
 * shared cluster's configuration changes.
 */
export async function startPrimary(): Promise<Primary> {
  const major = installedMajors()
    .filter((v) => fs.existsSync(path.join(DEBIAN_LIB, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  if (!replicaAvailable || !major) throw new Error('primário de teste: sem initdb em /usr/lib/postgresql ou sem o usuário postgres');
  const binDir = path.join(DEBIAN_LIB, major, 'bin');
  reapOrphans(binDir);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), DIR_PREFIX));
  fs.writeFileSync(path.join(root, 'owner'), String(process.pid));
  fs.chmodSync(root, 0o700);
  chownToPostgres(root);
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'primary.log');
  const handle: Live = { binDir, dataDir, root };
  live.add(handle);
  installExitHook();
  const destroy = removal(handle);
  let port = 0;
  try {
    await runTool(binDir, 'initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const hba = path.join(dataDir, 'pg_hba.conf');
    fs.writeFileSync(hba, `local all all trust\nhost all all 127.0.0.1/32 trust\n${HBA_LINE('postgres')}\n`, { mode: 0o600 });
    chownToPostgres(hba);
    port = await onFreePort(dataDir, logFile, async (free) => {
      const options = serverOptions(free, root, { wal_level: 'replica', max_wal_senders: '5', autovacuum: 'on' });
      await runTool(binDir, 'pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '30', '-o', options, 'start']);
    });
  } catch (error) {
    await destroy();
    throw error;
  }
  return { urlOf: (name) => `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(name)}`, port, destroy };
}
