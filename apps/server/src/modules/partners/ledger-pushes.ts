import type { PartnerMovementRequest, PartnerPassageRequest } from '@portal/contract';
import {
  DUPLICATE_PASSAGE_MINUTES_DEFAULT,
  messages,
  normalizeSerial,
  reaisToCents,
  refuse,
  serverMessages,
  STATEMENT_ORIGINS,
  stripDocument,
} from '@portal/domain';
import type { Db, Trx } from '../../db/connection.js';
import { accountId, post } from '../ledger/ledger.js';
import type { Partner } from './keys.js';
import type { PushAnswer } from './pushes.js';
import { PartnerPushes } from './pushes.js';
import { PassageBatches } from './passage-batch.js';
import type { PassageOutcome } from './passage-batch.js';
import type { ChunkPassage } from './passage-chunk.js';
import { requestHash } from '../../db/request-hash.js';
import type { Metrics } from '../../metrics.js';

interface PushedEntry {
  amountCents: number;
  origin: string;
  placeName: string;
  isThird: boolean;
  createdAt: string;
}

/** A passage as stored for its idempotency (decision 18): what "the same request" compares. */
function passageRequest(input: PartnerPassageRequest) {
  return {
    serial_number: normalizeSerial(input.serialNumber),
    place_name: input.placeName,
    amount_cents: -reaisToCents(input.value),
    is_third: input.is_third,
    created_at: new Date(input.occurredAt).toISOString(),
  };
}

/**
 * What partners push into the ledger (founding architecture §5): operators' toll passages and third-party
 * platforms' movements, each idempotent on the partner's externalId (PartnerPushes).
 */
export class LedgerPushes {
  constructor(
    private readonly db: Db,
    private readonly pushes: PartnerPushes = new PartnerPushes(db),
    /** Decision 56: two passages of a tag at a plaza this close are a possible double charge. */
    private readonly possibleDuplicateMinutes = DUPLICATE_PASSAGE_MINUTES_DEFAULT,
    private readonly metrics?: Metrics,
  ) {}

  /**
   * A toll passage, for a tag of the key's own operator (founding decision 24): paid by the tag's
   * open VPOs first, the rest debited from Saldo (or SaldoTerceiro) without a balance guard
   * (decision 52, modules/passages/record.ts). A tag blocked for an unpaid fee takes only passages an open VPO
   * covers. An unknown serial and another operator's tag get the same answer: an operator learns
   * nothing about the others' tags.
   */
  async recordPassage(partner: Partner, input: PartnerPassageRequest): Promise<PushAnswer> {
    const [outcome] = await this.recordPassages(partner, [input]);
    if (!outcome) throw new Error('Passagem sem resposta');
    if (outcome.result === 'RECUSADA') throw outcome.refusal;
    return outcome.answer;
  }

  /**
   * Decision 55: passages in the order given, each idempotent on its externalId exactly as the
   * single call (the same push rows), each answered as the single call would answer it; a refused
   * one changes nothing and undoes none of the others (passage-batch.ts: chunks, the locks taken
   * in one order first; passage-chunk.ts: a chunk's idempotency around modules/passages/record.ts).
   */
  async recordPassages(partner: Partner, inputs: readonly PartnerPassageRequest[]): Promise<PassageOutcome[]> {
    const operatorCnpj = partner.operatorCnpj;
    if (partner.kind !== 'operator' || operatorCnpj === null) throw refuse.forbidden(serverMessages.partner.operatorUnscoped);
    const passages = inputs.map((input): ChunkPassage => {
      const request = passageRequest(input);
      return {
        externalId: input.externalId,
        key: { kind: 'passage', externalId: input.externalId, hash: requestHash(request) },
        serial: request.serial_number,
        placeName: request.place_name,
        occurredAt: request.created_at,
        dueCents: -request.amount_cents,
        isThird: request.is_third,
      };
    });
    const { outcomes, flagged } = await new PassageBatches(this.db, this.pushes, this.possibleDuplicateMinutes).run(
      { ...partner, operatorCnpj },
      passages,
    );
    for (let i = 0; i < flagged; i++) this.metrics?.contestEvent('duplicate_flagged');
    return outcomes;
  }

  /** A third-party platform credits or debits the driver's third account (SaldoTerceiro). */
  async recordThirdPartyMovement(partner: Partner, input: PartnerMovementRequest): Promise<PushAnswer> {
    const cents = reaisToCents(input.value);
    const credit = input.origin === STATEMENT_ORIGINS.thirdPartyCredit;
    const request = {
      cpf_cnpj: stripDocument(input.cpfCnpj),
      origin: input.origin,
      amount_cents: credit ? cents : -cents,
      place_name: input.placeName ?? (credit ? 'Crédito de terceiro' : 'Débito de terceiro'),
      created_at: new Date(input.occurredAt).toISOString(),
    };
    return this.pushes.push(partner, 'movement', input.externalId, request, async (trx) => {
      const driver = await trx.selectFrom('drivers').select('id').where('cpf_cnpj', '=', request.cpf_cnpj).executeTakeFirst();
      if (!driver) throw refuse.notFound(messages.partner.driverUnknown);
      return this.postMovement(trx, partner, input.externalId, driver.id, {
        amountCents: request.amount_cents,
        origin: request.origin,
        placeName: request.place_name,
        isThird: true,
        createdAt: request.created_at,
      });
    });
  }

  /** A third-party movement: SaldoTerceiro, idempotent on the platform's externalId. */
  private async postMovement(
    trx: Trx,
    partner: Partner,
    externalId: string,
    driverId: number,
    entry: PushedEntry,
  ): Promise<Omit<PushAnswer, 'replayed'>> {
    const result = await post(trx, {
      accountId: await accountId(trx, driverId, 'third'),
      amountCents: entry.amountCents,
      origin: entry.origin,
      placeName: entry.placeName,
      isThird: entry.isThird,
      reference: `partner:${partner.id}`,
      idempotencyKey: `partner:${partner.id}:movement:${externalId}`,
      createdAt: entry.createdAt,
    });
    return this.answer(result.entryId, result.status === 'duplicate', serverMessages.partner.movementRecorded);
  }

  private answer(entryId: number, duplicate: boolean, recorded: string): Omit<PushAnswer, 'replayed'> {
    return {
      status: 200,
      body: { Sucesso: true, Mensagem: duplicate ? serverMessages.partner.duplicate : recorded, id: String(entryId), duplicate },
    };
  }
}
