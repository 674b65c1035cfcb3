import { Refusal } from '@portal/domain';
import { sql } from 'kysely';
import type { Db, Trx } from '../../db/connection.js';
import type { Partner } from './keys.js';
import type { PushAnswer, PushEffect, PushKey } from './pushes.js';
import { PartnerPushes } from './pushes.js';

/** One passage of a batch, as the idempotency and the locks need it. */
export interface BatchPassage {
  key: PushKey;
  /** The serial as stored (normalised): its tag's driver is locked before any passage runs. */
  serial: string;
}

/** What became of one passage: recorded now, the first answer of the same request seen before, or refused. */
export type PassageOutcome = { result: 'ACEITA' | 'REPETIDA'; answer: PushAnswer } | { result: 'RECUSADA'; refusal: Refusal };

/**
 * Decision 55: passages per transaction. A transaction costs its BEGIN/COMMIT (an fsync on
 * PostgreSQL) and, on SQLite, holds the one connection: 100 passages take a few milliseconds.
 */
const PASSAGE_CHUNK = 100;

/** PostgreSQL gives up on a deadlock or a serialization failure: the chunk is rolled back whole and run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;
const SAVEPOINT = 'passagem';

function retryable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && RETRYABLE.has(String((error as { code?: unknown }).code));
}

/**
 * Runs passages, in the order given, in chunks of PASSAGE_CHUNK: one transaction per chunk, a
 * savepoint per passage, so that a refused passage is rolled back alone and the others stay.
 * Before any passage runs, a chunk takes the locks its passages will need, each kind in one
 * order: the drivers (by id), their tags, their accounts. Two batches, or
 * a batch and a withdrawal, a Pix credit or the billing, then queue instead of deadlocking.
 * The single call is a batch of one: the same locks, the same effect.
 */
export class PassageBatches {
  constructor(
    private readonly db: Db,
    private readonly pushes: PartnerPushes,
    private readonly chunkSize = PASSAGE_CHUNK,
  ) {}

  async run(
    partner: Partner & { operatorCnpj: string },
    passages: readonly BatchPassage[],
    effect: (trx: Trx, index: number) => ReturnType<PushEffect>,
  ): Promise<PassageOutcome[]> {
    const outcomes: PassageOutcome[] = new Array<PassageOutcome>(passages.length);
    for (let start = 0; start < passages.length; start += this.chunkSize) {
      const indexes = passages.slice(start, start + this.chunkSize).map((_, i) => start + i);
      await this.chunk(partner, passages, indexes, effect, outcomes);
    }
    return outcomes;
  }

  private async chunk(
    partner: Partner & { operatorCnpj: string },
    passages: readonly BatchPassage[],
    indexes: number[],
    effect: (trx: Trx, index: number) => ReturnType<PushEffect>,
    outcomes: PassageOutcome[],
  ): Promise<void> {
    // Replays (a batch sent again) are answered from one read, without a transaction.
    const stored = await this.pushes.storedRows(
      partner,
      'passage',
      indexes.map((i) => passages[i]!.key.externalId),
    );
    const pending: number[] = [];
    for (const i of indexes) {
      const { key } = passages[i]!;
      const row = stored.get(key.externalId);
      if (!row) pending.push(i);
      else outcomes[i] = settle(() => PartnerPushes.replayOf(row, key.hash));
    }
    if (pending.length === 0) return;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const done = await this.inTransaction(partner, passages, pending, effect);
        for (const [i, outcome] of done) outcomes[i] = outcome;
        return;
      } catch (error) {
        if (!retryable(error) || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  private async inTransaction(
    partner: Partner & { operatorCnpj: string },
    passages: readonly BatchPassage[],
    pending: number[],
    effect: (trx: Trx, index: number) => ReturnType<PushEffect>,
  ): Promise<[number, PassageOutcome][]> {
    const trx = await this.db.kysely.startTransaction().execute();
    try {
      if (this.db.dialect === 'postgres') {
        await lockInOrder(
          trx,
          partner.operatorCnpj,
          pending.map((i) => passages[i]!.serial),
        );
      }
      const done: [number, PassageOutcome][] = [];
      for (const i of pending) {
        const item = await trx.savepoint(SAVEPOINT).execute();
        try {
          const answer = await this.pushes.claimAndRun(item, partner, passages[i]!.key, (t) => effect(t, i));
          await item.releaseSavepoint(SAVEPOINT).execute();
          done.push([i, { result: answer.replayed ? 'REPETIDA' : 'ACEITA', answer }]);
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          await item.rollbackToSavepoint(SAVEPOINT).execute();
          done.push([i, { result: 'RECUSADA', refusal: error }]);
        }
      }
      await trx.commit().execute();
      return done;
    } catch (error) {
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      throw error;
    }
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

/**
 * PostgreSQL: the row locks the chunk's passages will take, before the first one runs, each kind
 * sorted: the drivers (FOR NO KEY UPDATE, as lockDriver), the tags (FOR KEY SHARE, what a month's
 * first passage takes through its usage row), the drivers' accounts (FOR NO KEY UPDATE, as the
 * ledger's UPDATE; whatever the ledger writes after an account, it writes holding that account).
 * A transaction that locks one driver, or a tag and then its account (the billing, an
 * activation), meets them in the same order. Only the operator's own tags: the others are
 * refused without touching anything.
 */
async function lockInOrder(trx: Trx, operatorCnpj: string, serials: string[]): Promise<void> {
  const tags = await trx
    .selectFrom('tags')
    .select(['id', 'driver_id'])
    .where('serial_number', 'in', [...new Set(serials)])
    .where('operator_cnpj', '=', operatorCnpj)
    .where('deleted_at', 'is', null)
    .where('released_at', 'is', null)
    .execute();
  if (tags.length === 0) return;
  const drivers = [...new Set(tags.map((t) => t.driver_id))].sort((a, b) => a - b);
  const tagIds = [...new Set(tags.map((t) => t.id))].sort((a, b) => a - b);
  await sql`select id from drivers where id in (${sql.join(drivers)}) order by id for no key update`.execute(trx);
  await sql`select id from tags where id in (${sql.join(tagIds)}) order by id for key share`.execute(trx);
  await sql`select id from accounts where driver_id in (${sql.join(drivers)}) order by id for no key update`.execute(trx);
}
