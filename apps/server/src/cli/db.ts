import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { dialectOf, sqlitePath } from '../db/connection.js';
import { CliFailure } from './pix.js';

/** Where pg_dump/pg_restore are looked for after PATH (Debian's packages). */
const PG_BIN_DIRS = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

export interface BackupOptions {
  databaseUrl: string;
  /** Absolute path of the backup file. */
  file: string;
}

/**
 * SQLite: SQLite's online backup (better-sqlite3 `backup()`), safe while servers write; the copy
 * is then checked. PostgreSQL: pg_dump in its custom format (what pg_restore reads), or, without
 * pg_dump on this machine, the command to run where it is.
 */
export async function backupDatabase({ databaseUrl, file }: BackupOptions): Promise<string> {
  if (fs.existsSync(file)) throw new CliFailure(`O arquivo ${file} já existe: escolha outro nome (uma cópia nunca sobrescreve outra).`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (dialectOf(databaseUrl) === 'postgres')
    return postgresTool('pg_dump', databaseUrl, ['--format=custom', '--no-owner', `--file=${file}`]);
  const source = existingSqlite(databaseUrl);
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await db.backup(file);
    const check = checkSqlite(file);
    return `Cópia de segurança de ${source} gravada em ${file} (${totalPages} páginas; ${check}).`;
  } finally {
    db.close();
  }
}

export interface RestoreOptions extends BackupOptions {
  /** The operator confirmed that every server using the database is stopped. */
  force: boolean;
  now?: Date;
}

/**
 * Replaces the database's content with a backup. Refused without --force: every server using
 * the database must be stopped first (their sessions and counters would jump back in time under
 * them). SQLite: the current database is first saved next to it, then the backup is written into
 * it through SQLite's backup API, which takes the write lock and goes through the WAL, so the
 * -wal/-shm files never disagree with the new content. PostgreSQL: the schema emptied and the
 * backup's script (pg_restore) run by psql, both in one transaction: a failure changes nothing.
 */
export async function restoreDatabase({ databaseUrl, file, force, now = new Date() }: RestoreOptions): Promise<string> {
  if (!fs.existsSync(file)) throw new CliFailure(`Arquivo de cópia não encontrado: ${file}`);
  if (!force) {
    throw new CliFailure(
      'A restauração substitui todo o conteúdo do banco. Pare todos os servidores que o usam e repita com --force: ' +
        `db:restore ${file} --force`,
    );
  }
  if (dialectOf(databaseUrl) === 'postgres') return restorePostgres(databaseUrl, file);
  const target = existingSqlite(databaseUrl);
  checkSqlite(file);
  const saved = `${target}.antes-da-restauracao-${now.toISOString().replace(/[:.]/g, '-')}`;
  const current = new SQLite(target, { fileMustExist: true });
  try {
    await current.backup(saved);
  } finally {
    current.close();
  }
  const backup = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    await backup.backup(target);
  } finally {
    backup.close();
  }
  const check = checkSqlite(target);
  return `Banco ${target} restaurado de ${file} (${check}). O conteúdo anterior foi guardado em ${saved}.`;
}

function existingSqlite(databaseUrl: string): string {
  const file = sqlitePath(databaseUrl);
  if (file === ':memory:') throw new CliFailure('Um banco em memória não tem cópia de segurança.');
  const full = path.resolve(file);
  if (!fs.existsSync(full)) throw new CliFailure(`Banco SQLite não encontrado: ${full}`);
  return full;
}

/** quick_check and the ledger's own invariant: what a restored database must pass. */
function checkSqlite(file: string): string {
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch {
    throw new CliFailure(`${file} não é um banco SQLite legível.`);
  }
  try {
    const quick = db.pragma('quick_check', { simple: true });
    if (quick !== 'ok') throw new CliFailure(`${file} está corrompido (quick_check: ${String(quick)}).`);
    const hasLedger = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'accounts'").get();
    if (!hasLedger) throw new CliFailure(`${file} não é um banco do Portal do Motorista (sem a tabela accounts).`);
    const wrong = db
      .prepare(
        `select count(*) as n from accounts a
         where a.balance_cents <> coalesce((select sum(e.amount_cents) from ledger_entries e where e.account_id = a.id), 0)`,
      )
      .get() as { n: number };
    if (wrong.n > 0) throw new CliFailure(`${file}: ${wrong.n} conta(s) com saldo diferente da soma dos lançamentos.`);
    return 'verificado: íntegro, saldos = soma dos lançamentos';
  } catch (error) {
    if (error instanceof CliFailure) throw error;
    throw new CliFailure(`${file} não é um banco SQLite legível.`);
  } finally {
    db.close();
  }
}

/**
 * Runs pg_dump with the password in PGPASSWORD (never in the arguments, which any
 * user of the machine can list); without the tool, prints the command, password masked.
 */
function postgresTool(tool: 'pg_dump', databaseUrl: string, args: string[]): string {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const all = [...args, `--dbname=${url.toString()}`];
  const binary = findTool(tool);
  const shown = `${password ? 'PGPASSWORD=... ' : ''}${tool} ${all.map(quote).join(' ')}`;
  if (!binary) {
    return `${tool} não foi encontrado nesta máquina (PATH ou ${PG_BIN_DIRS.join(', ')}). Execute onde ele estiver (mesma versão principal do servidor ou mais nova):\n  ${shown}`;
  }
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  const result = spawnSync(binary, all, { env, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new CliFailure(
      `${tool} falhou (código ${result.status ?? 'desconhecido'}): ${(result.stderr || result.error?.message || '').trim()}\nComando: ${shown}`,
    );
  }
  const file = args.find((a) => a.startsWith('--file='))?.slice(7);
  return `Cópia de segurança do PostgreSQL gravada em ${file} (pg_dump, formato custom).`;
}

/**
 * pg_restore --clean cannot drop a partitioned table's months (decision 80: it drops each month's
 * inherited key first, which PostgreSQL refuses); emptying the schema and loading the script in the
 * same transaction replaces everything or nothing.
 */
async function restorePostgres(databaseUrl: string, file: string): Promise<string> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const restore = findTool('pg_restore');
  const psql = findTool('psql');
  const shown = `${password ? 'PGPASSWORD=... ' : ''}pg_restore --no-owner --file=- ${quote(file)} | psql --single-transaction -v ON_ERROR_STOP=1 --file=- ${quote(url.toString())}`;
  if (!restore || !psql)
    return `pg_restore e psql não foram encontrados nesta máquina (PATH ou ${PG_BIN_DIRS.join(', ')}). Esvazie o schema public e execute onde estiverem:\n  ${shown}`;
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  const loader = spawn(
    psql,
    ['--no-psqlrc', '--quiet', '--single-transaction', '-v', 'ON_ERROR_STOP=1', '--file=-', `--dbname=${url.toString()}`],
    {
      env,
      stdio: ['pipe', 'ignore', 'pipe'],
    },
  );
  const script = spawn(restore, ['--no-owner', '--file=-', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const errors: string[] = [];
  loader.stderr.on('data', (chunk: Buffer) => errors.push(chunk.toString('utf8')));
  script.stderr.on('data', (chunk: Buffer) => errors.push(chunk.toString('utf8')));
  loader.stdin.write('drop schema if exists public cascade;\ncreate schema public;\n');
  script.stdout.pipe(loader.stdin);
  const exit = (child: ReturnType<typeof spawn>) =>
    new Promise<number | null>((resolve) => {
      child.once('error', (error) => {
        errors.push(error.message);
        resolve(null);
      });
      child.once('close', resolve);
    });
  const [dumped, loaded] = await Promise.all([exit(script), exit(loader)]);
  if (dumped !== 0 || loaded !== 0) {
    throw new CliFailure(`A restauração falhou e o banco não mudou: ${errors.join('').trim()}\nComando: ${shown}`);
  }
  return `Banco PostgreSQL restaurado de ${file} (pg_restore e psql, numa transação).`;
}

function findTool(tool: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...PG_BIN_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, tool);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}
