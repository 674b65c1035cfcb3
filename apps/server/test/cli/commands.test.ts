import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ensureTerms } from '../../src/modules/terms/bootstrap.js';
import { TermsService } from '../../src/modules/terms/service.js';
import { buildTemplateTermsPdf } from '../../src/modules/terms/template-pdf.js';
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';
import { runCli } from '../helpers/cli.js';

/** The CLI against one database. */
const cli = (args: string[], databaseUrl: string) => runCli(args, { DATABASE_URL: databaseUrl });

describeEachDatabase('cli', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cli-'));

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.open();
    await migrateToLatest(db);
    await ensureTerms(new TermsService(db.kysely));
  });
  afterAll(async () => {
    await db.kysely.destroy();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('help lists the commands', async () => {
    const out = await cli(['help'], database.url);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('terms:publish <arquivo.pdf>');
    expect(out.stdout).toContain('migrate');
  });

  it('terms:publish refuses a missing or non-PDF file and publishes a real PDF as the next version', async () => {
    const missing = await cli(['terms:publish'], database.url);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Informe o arquivo PDF');

    const text = path.join(dir, 'termos.txt');
    fs.writeFileSync(text, 'não sou um pdf');
    const notPdf = await cli(['terms:publish', text], database.url);
    expect(notPdf.code).toBe(1);
    expect(notPdf.stderr).toContain('não é um PDF');

    const pdf = path.join(dir, 'termos.pdf');
    fs.writeFileSync(pdf, await buildTemplateTermsPdf());
    const ok = await cli(['terms:publish', pdf], database.url);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('versão 2');
    const versions = await db.kysely.selectFrom('terms').select('version').orderBy('version').execute();
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
  });

  it('an unknown command fails with the help', async () => {
    const out = await cli(['nada'], database.url);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('Comando desconhecido');
  });
});
