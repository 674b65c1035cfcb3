import { Refusal } from '@portal/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { isRetryableTransactionError } from '../../db/retry.js';
import { lockPassageHolders } from '../passages/locks.js';
import type { Partner } from './keys.js';
import type { ChunkOutcome, ChunkPassage } from './passage-chunk.js';
import { recordChunk, TwinStored } from './passage-chunk.js';
import type { PushAnswer } from './pushes.js';
import { PartnerPushes } from './pushes.js';

/** What became of one passage: recorded now, the first answer of the same request seen before, or refused. */
export type PassageOutcome = ChunkOutcome;

/**
 * Decision 55: passages per transaction. A transaction costs its BEGIN/COMMIT (an fsync on
 * PostgreSQL) and, on SQLite, holds the one connection: 100 passages take a few milliseconds.
 */
const PASSAGE_CHUNK = 100;

const ATTEMPTS = 3;

function retryable(error: unknown): boolean {
  return error instanceof TwinStored || isRetryableTransactionError(error);
}

/**
 * Runs passages, in the order given, in chunks of PASSAGE_CHUNK: one transaction per chunk, in a
 * few statements whatever its size (passage-chunk.ts); a refused passage writes nothing and the
 * others stay. Before any passage runs, a chunk takes the locks its passages will need, each kind
 * in one order: the drivers (by id), their tags, their accounts. Two batches, or a batch and a
 * withdrawal, a Pix credit or the billing, then queue instead of deadlocking. The single call is
 * a batch of one: the same locks, the same statements.
 */
export class PassageBatches {
  constructor(
    private readonly db: Db,
    private readonly pushes: PartnerPushes,
    private readonly possibleDuplicateMinutes: number,
    private readonly chunkSize = PASSAGE_CHUNK,
  ) {}

  /** The outcome of each passage, and how many were flagged as possible double charges. */
  async run(
    partner: Partner & { operatorCnpj: string },
    passages: readonly ChunkPassage[],
  ): Promise<{ outcomes: PassageOutcome[]; flagged: number }> {
    const outcomes: PassageOutcome[] = new Array<PassageOutcome>(passages.length);
    let flagged = 0;
    for (let start = 0; start < passages.length; start += this.chunkSize) {
      const indexes = passages.slice(start, start + this.chunkSize).map((_, i) => start + i);
      flagged += await this.chunk(partner, passages, indexes, outcomes);
    }
    return { outcomes, flagged };
  }

  private async chunk(
    partner: Partner & { operatorCnpj: string },
    passages: readonly ChunkPassage[],
    indexes: number[],
    outcomes: PassageOutcome[],
  ): Promise<number> {
    for (let attempt = 1; ; attempt += 1) {
      // Replays (a batch sent again) are answered from one read, without a transaction.
      const stored = await this.pushes.storedRows(
        partner,
        'passage',
        indexes.map((i) => passages[i]!.externalId),
      );
      const pending: number[] = [];
      for (const i of indexes) {
        const row = stored.get(passages[i]!.externalId);
        if (!row) pending.push(i);
        else outcomes[i] = settle(() => PartnerPushes.replayOf(row, passages[i]!.key.hash));
      }
      if (pending.length === 0) return 0;
      try {
        return await this.inTransaction(partner, passages, pending, outcomes);
      } catch (error) {
        if (!retryable(error) || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  private async inTransaction(
    partner: Partner & { operatorCnpj: string },
    passages: readonly ChunkPassage[],
    pending: number[],
    outcomes: PassageOutcome[],
  ): Promise<number> {
    return this.db.kysely.transaction().execute(async (trx) => {
      if (this.db.dialect === 'postgres') {
        await lockPassageHolders(
          trx,
          partner.operatorCnpj,
          pending.map((i) => passages[i]!.serial),
        );
      } else {
        // SQLite: the write lock first, as BEGIN IMMEDIATE would take it (the chunk reads before it
        // writes; a read snapshot another process writes over cannot become a write transaction,
        // SQLITE_BUSY_SNAPSHOT). A DELETE of no row takes the lock and changes nothing.
        await sql`delete from partner_pushes where 1 = 0`.execute(trx);
      }
      const done = await recordChunk(
        trx,
        partner,
        pending.map((i) => passages[i]!),
        this.possibleDuplicateMinutes,
      );
      for (const [n, i] of pending.entries()) outcomes[i] = done.outcomes[n]!;
      return done.flagged;
    });
  }
}

function settle(replay: () => PushAnswer): PassageOutcome {
  try {
    return { result: 'REPETIDA', answer: replay() };
  } catch (error) {
    if (error instanceof Refusal) return { result: 'RECUSADA', refusal: error };
    throw error;
  }
}
