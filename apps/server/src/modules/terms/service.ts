import { createHash } from 'node:crypto';
import { refuse, serverMessages, TERMS_FILE_NAME } from '@portal/domain';
import type { Kysely } from 'kysely';
import { nowIso, toIso } from '../../db/connection.js';
import type { Database, TermDecisionAction } from '../../db/schema.js';

export interface TermInfo {
  id: number;
  version: number;
  publishedAt: string;
}

export interface TermStatus {
  action: TermDecisionAction;
  termId: number;
  version: number;
  decidedAt: string;
}

export class InvalidPdfError extends Error {}

/** Versioned terms of use with their PDF in the database, and drivers' append-only decisions. */
export class TermsService {
  constructor(private readonly db: Kysely<Database>) {}

  async current(): Promise<TermInfo | null> {
    const row = await this.db
      .selectFrom('terms')
      .select(['id', 'version', 'published_at'])
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { id: row.id, version: row.version, publishedAt: toIso(row.published_at) } : null;
  }

  async requireCurrent(): Promise<TermInfo> {
    const term = await this.current();
    if (!term) throw refuse.notFound(serverMessages.terms.noCurrentTerm);
    return term;
  }

  async file(termId: number): Promise<{ id: number; fileName: string; pdf: Buffer }> {
    const row = await this.db.selectFrom('terms').select(['id', 'file_name', 'pdf']).where('id', '=', termId).executeTakeFirst();
    if (!row) throw refuse.notFound(serverMessages.terms.termNotFound);
    return { id: row.id, fileName: row.file_name, pdf: Buffer.from(row.pdf) };
  }

  /** The driver's latest decision on the current term; null when none (or no term yet). */
  async status(driverId: number): Promise<TermStatus | null> {
    const term = await this.current();
    if (!term) return null;
    const row = await this.db
      .selectFrom('term_decisions')
      .select(['action', 'decided_at'])
      .where('driver_id', '=', driverId)
      .where('term_id', '=', term.id)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { action: row.action, termId: term.id, version: term.version, decidedAt: toIso(row.decided_at) } : null;
  }

  async decide(driverId: number, action: TermDecisionAction): Promise<void> {
    const term = await this.requireCurrent();
    await this.db.insertInto('term_decisions').values({ driver_id: driverId, term_id: term.id, action, decided_at: nowIso() }).execute();
  }

  /** Publishes a new version; every driver's status on the current term starts empty again. */
  async publish(pdf: Uint8Array): Promise<TermInfo> {
    await assertPdf(pdf);
    const bytes = Buffer.from(pdf);
    return this.db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom('terms')
        .select((eb) => eb.fn.max('version').as('v'))
        .executeTakeFirst();
      const version = Number(last?.v ?? 0) + 1;
      const publishedAt = nowIso();
      const row = await trx
        .insertInto('terms')
        .values({
          version,
          file_name: TERMS_FILE_NAME,
          pdf: bytes,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          published_at: publishedAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, version, publishedAt };
    });
  }
}

async function assertPdf(pdf: Uint8Array): Promise<void> {
  if (Buffer.from(pdf.subarray(0, 5)).toString('latin1') !== '%PDF-') {
    throw new InvalidPdfError('O arquivo não é um PDF (não começa com %PDF-)');
  }
  try {
    // Loaded when a PDF is read, not with the module: the server and the CLI start without it.
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    if (doc.getPageCount() === 0) throw new InvalidPdfError('O PDF não tem páginas');
  } catch (error) {
    if (error instanceof InvalidPdfError) throw error;
    throw new InvalidPdfError(`PDF ilegível: ${error instanceof Error ? error.message : String(error)}`);
  }
}
