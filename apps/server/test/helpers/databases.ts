import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { openDb } from '../../src/db/connection.js';
import type { Db, Dialect } from '../../src/db/connection.js';

const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  url: string;
  open(): Db;
  drop(): Promise<void>;
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const pgUp = await postgresReachable();
if (!pgUp) {
  const message = `PostgreSQL inacessível em ${PG_ADMIN_URL}`;
  if (process.env.CI === 'true') throw new Error(`${message}: com CI=true os testes de PostgreSQL são obrigatórios.`);
  console.warn(`${message}: variantes PostgreSQL dos testes ignoradas.`);
}

function uniqueName(): string {
  return `portal_test_${process.pid}_${randomBytes(4).toString('hex')}`;
}

async function sqliteDatabase(): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  const url = `file:${path.join(dir, 'portal.sqlite')}`;
  return {
    url,
    open: () => openDb(url),
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresDatabase(): Promise<TestDatabase> {
  const name = uniqueName();
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    open: () => openDb(url.toString(), { poolMax: 5 }),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  return dialect === 'sqlite' ? sqliteDatabase() : postgresDatabase();
}

/** Runs the suite once per database engine: SQLite always, PostgreSQL when reachable. */
export function describeEachDatabase(name: string, suite: (dialect: Dialect) => void): void {
  describeOneDatabase(name, 'sqlite', () => suite('sqlite'));
  describeOneDatabase(name, 'postgres', () => suite('postgres'));
}

/** One database's half of describeEachDatabase: a long suite split into a file per database runs on both cores. */
export function describeOneDatabase(name: string, dialect: Dialect, suite: () => void): void {
  (dialect === 'sqlite' || pgUp ? describe : describe.skip)(`${name} [${dialect}]`, suite);
}

/**
 * A fresh database per test file, open for its tests (beforeAll/afterAll); `prepare` runs once it
 * is open (migrations, terms...). The returned getter is valid inside tests.
 */
export function useFreshDatabase(dialect: Dialect, prepare?: (db: Db) => Promise<void>): () => Db {
  let database: TestDatabase | null = null;
  let db: Db | null = null;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.open();
    await prepare?.(db);
  });
  afterAll(async () => {
    await db?.kysely.destroy();
    await database?.drop();
  });
  return () => {
    if (!db) throw new Error('useFreshDatabase: banco ainda não aberto');
    return db;
  };
}
