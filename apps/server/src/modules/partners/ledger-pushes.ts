import type { PartnerMovementRequest, PartnerPassageRequest } from '@portal/contract';
import { messages, normalizeSerial, reaisToCents, refuse, serverMessages, STATEMENT_ORIGINS, stripDocument } from '@portal/domain';
import type { Db, Trx } from '../../db/connection.js';
import { accountId, post } from '../ledger/ledger.js';
import type { Partner } from './keys.js';
import type { PushAnswer } from './pushes.js';
import { PartnerPushes } from './pushes.js';
import { provenActiveTag } from './tag-proof.js';

interface PushedEntry {
  kind: 'own' | 'third';
  amountCents: number;
  origin: string;
  placeName: string;
  isThird: boolean;
  createdAt: string;
}

/**
 * What partners push into the ledger (founding architecture §5): operators' toll passages and third-party
 * platforms' movements, each idempotent on the partner's externalId (PartnerPushes).
 */
export class LedgerPushes {
  constructor(
    private readonly db: Db,
    private readonly pushes: PartnerPushes = new PartnerPushes(db),
  ) {}

  /**
   * A toll passage debits the driver's own account (or the third account), without a balance
   * guard, for an active tag of the key's own operator (founding decision 24). An unknown serial and
   * another operator's tag get the same answer: an operator learns nothing about the others' tags.
   */
  async recordPassage(partner: Partner, input: PartnerPassageRequest): Promise<PushAnswer> {
    const operatorCnpj = partner.operatorCnpj;
    if (partner.kind !== 'operator' || operatorCnpj === null) throw refuse.forbidden(serverMessages.partner.operatorUnscoped);
    const request = {
      serial_number: normalizeSerial(input.serialNumber),
      place_name: input.placeName,
      amount_cents: -reaisToCents(input.value),
      is_third: input.is_third,
      created_at: new Date(input.occurredAt).toISOString(),
    };
    return this.pushes.push(partner, 'passage', input.externalId, request, async (trx) => {
      const tag = await provenActiveTag(
        trx,
        request.serial_number,
        (held) => held.operatorCnpj === operatorCnpj,
        () => refuse.invalid(serverMessages.partner.operatorTagNotFound, 'serialNumber'),
      );
      return this.postEntry(trx, partner, 'passage', input.externalId, tag.driverId, serverMessages.partner.passageRecorded, {
        kind: request.is_third ? 'third' : 'own',
        amountCents: request.amount_cents,
        origin: STATEMENT_ORIGINS.passage,
        placeName: request.place_name,
        isThird: request.is_third,
        createdAt: request.created_at,
      });
    });
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
      return this.postEntry(trx, partner, 'movement', input.externalId, driver.id, serverMessages.partner.movementRecorded, {
        kind: 'third',
        amountCents: request.amount_cents,
        origin: request.origin,
        placeName: request.place_name,
        isThird: true,
        createdAt: request.created_at,
      });
    });
  }

  private async postEntry(
    trx: Trx,
    partner: Partner,
    what: 'passage' | 'movement',
    externalId: string,
    driverId: number,
    recorded: string,
    entry: PushedEntry,
  ): Promise<Omit<PushAnswer, 'replayed'>> {
    const result = await post(trx, {
      accountId: await accountId(trx, driverId, entry.kind),
      amountCents: entry.amountCents,
      origin: entry.origin,
      placeName: entry.placeName,
      isThird: entry.isThird,
      reference: `partner:${partner.id}`,
      idempotencyKey: `partner:${partner.id}:${what}:${externalId}`,
      createdAt: entry.createdAt,
    });
    const duplicate = result.status === 'duplicate';
    return {
      status: 200,
      body: { Sucesso: true, Mensagem: duplicate ? serverMessages.partner.duplicate : recorded, id: String(result.entryId), duplicate },
    };
  }
}
