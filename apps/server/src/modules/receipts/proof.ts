import type { ProofFacts } from '@portal/contract';
import type { ProofPayerAccount } from '@portal/domain';
import {
  centsToReais,
  contestMessages,
  formatCpfCnpj,
  freeFlowMessages,
  maskCpfCnpj,
  proofMessages,
  proofPayerText,
  refuse,
} from '@portal/domain';
import type { Db } from '../../db/connection.js';
import { toIso } from '../../db/connection.js';
import type { SigningKeys } from '../../db/signing-keys.js';
import { balanceAt, tagAt } from '../passages/free-flow/moment.js';
import { tollPlace } from '../passages/free-flow/pay.js';
import { Catalogue } from '../tags/catalogue.js';

/**
 * Decision 76: the proof for an appeal ('Comprovante para recurso') of a free-flow toll or of a tag
 * passage, and its public verification.
 *
 * The verification code names what the proof is of and when it was issued, and is signed with the
 * portal's own key (SigningKeys 'proof', the same in every instance), so a code with any character
 * changed shows nothing:
 *
 *     <kind><id>.<issued>.<signature>        e.g. L1k.t9gq2c.Xo3…(27 characters)
 *
 *  - kind: 'L' a free-flow toll (livre passagem), 'P' a tag passage;
 *  - id: the row's id and issued: the Unix time in seconds, both in base 36 (lowercase);
 *  - signature: HMAC-SHA256 of '<kind><id>.<issued>' under the key, base64url, its first 27
 *    characters (162 bits).
 *
 * Some 40 characters of [0-9A-Za-z_-.], safe in a URL path as they are. The signature covers the
 * payload as written, so even a change of case in the base-36 parts is refused.
 *
 * Nothing of a proof is stored: the verification recomputes its facts from the database as of the
 * issue. That is sound because what they come from is not rewritten: the ledger is append-only
 * (the Saldo then is today's balance less every entry dated later), a passage and a toll keep their
 * moment, place and value, and a payment or a cancellation after the issue is left out by its date.
 * (The tag is read as it is now, by tagAt's rule: a tag removed later no longer shows.)
 */
export type ProofKind = 'toll' | 'passage';

const KIND_LETTERS: Record<ProofKind, string> = { toll: 'L', passage: 'P' };
const SIGNATURE_LENGTH = 27;
const KEY_NAME = 'proof';
const CODE = /^([LP])([1-9a-z][0-9a-z]{0,9})\.([1-9a-z][0-9a-z]{0,9})\.([A-Za-z0-9_-]{27})$/;

interface ParsedCode {
  kind: ProofKind;
  id: number;
  issued: number;
  payload: string;
  signature: string;
}

function payloadOf(kind: ProofKind, id: number, issued: number): string {
  return `${KIND_LETTERS[kind]}${id.toString(36)}.${issued.toString(36)}`;
}

/** The code's parts, or null when it is not one the portal could have written. */
function parseCode(code: string): ParsedCode | null {
  const m = CODE.exec(code);
  if (!m) return null;
  const [, letter = '', idText = '', issuedText = '', signature = ''] = m;
  const id = Number.parseInt(idText, 36);
  const issued = Number.parseInt(issuedText, 36);
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(issued)) return null;
  return { kind: letter === 'L' ? 'toll' : 'passage', id, issued, payload: `${letter}${idText}.${issuedText}`, signature };
}

/** The payment receipt of a free-flow toll the portal paid (GET /api/livre-passagem/:id/comprovante). */
export interface TollReceipt {
  id: number;
  externalId: string;
  concessionaire: string;
  gantry: string;
  highway: string;
  km: number;
  direction: string;
  plate: string;
  place: string;
  cents: number;
  occurredAt: string;
  paidAt: string;
  paidBy: string;
  authentication: string | null;
  cancelledAt: string | null;
}

/** The public path of a proof's verification (the web app's page /verificar/:codigo). */
export function verifyPath(code: string): string {
  return `/verificar/${code}`;
}

/** Decision 76: proofs for an appeal, their verification, and the payment receipt of a toll (built once in services.ts). */
export class ProofService {
  constructor(
    private readonly db: Db,
    private readonly keys: SigningKeys,
    private readonly now: () => Date = () => new Date(),
    private readonly catalogue: Catalogue = new Catalogue(),
  ) {}

  /** The driver's own toll's proof, issued now; another driver's is the same 404 as none. */
  async forToll(driverId: number, tollId: number): Promise<ProofFacts> {
    const facts = await this.facts('toll', tollId, this.issuedNow(), driverId);
    if (!facts) throw refuse.notFound(freeFlowMessages.notFound);
    return facts;
  }

  /** The driver's own passage's proof, issued now; another driver's is the same 404 as none. */
  async forPassage(driverId: number, passageId: number): Promise<ProofFacts> {
    const facts = await this.facts('passage', passageId, this.issuedNow(), driverId);
    if (!facts) throw refuse.notFound(contestMessages.passageNotFound);
    return facts;
  }

  /**
   * The facts of the proof this code was printed on, recomputed as of its issue, the document
   * masked; any code the portal did not sign as it is (malformed, changed, of a row gone) is 404.
   */
  async verify(code: string): Promise<ProofFacts> {
    const parsed = parseCode(code);
    // keys.verify compares in constant time.
    if (!parsed || !(await this.keys.verify(KEY_NAME, parsed.payload, parsed.signature))) throw refuse.notFound(proofMessages.notFound);
    const facts = await this.facts(parsed.kind, parsed.id, parsed.issued, null);
    if (!facts) throw refuse.notFound(proofMessages.notFound);
    return facts;
  }

  /** The payment receipt of the driver's own paid toll: 404 as none when not theirs, 409 when the portal did not pay it. */
  async tollReceipt(driverId: number, tollId: number): Promise<TollReceipt> {
    const toll = await this.db.kysely
      .selectFrom('free_flow_tolls as t')
      .innerJoin('partners', 'partners.id', 't.partner_id')
      .selectAll('t')
      .select('partners.name as partner_name')
      .where('t.id', '=', tollId)
      .where('t.driver_id', '=', driverId)
      .executeTakeFirst();
    if (!toll) throw refuse.notFound(freeFlowMessages.notFound);
    if (toll.paid_at === null) throw refuse.conflict(proofMessages.notPaid);
    return {
      id: toll.id,
      externalId: toll.external_id,
      concessionaire: toll.partner_name,
      gantry: toll.gantry,
      highway: toll.highway,
      km: Number(toll.km_milli) / 1000,
      direction: toll.direction,
      plate: toll.plate,
      place: tollPlace(toll),
      cents: Number(toll.amount_cents),
      occurredAt: toIso(toll.occurred_at),
      paidAt: toIso(toll.paid_at),
      paidBy: proofPayerText(await this.tollPayers(toll.id)),
      authentication: toll.authentication,
      cancelledAt: toll.cancelled_at === null ? null : toIso(toll.cancelled_at),
    };
  }

  /** Seconds: the code carries the issue to the second, and the facts are read as of it. */
  private issuedNow(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  private async code(kind: ProofKind, id: number, issued: number): Promise<string> {
    const payload = payloadOf(kind, id, issued);
    return `${payload}.${await this.keys.sign(KEY_NAME, payload, SIGNATURE_LENGTH)}`;
  }

  /** The proof's facts as of `issued` (whatever happened within that second included); `driverId` null: anyone's (verification). */
  private facts(kind: ProofKind, id: number, issued: number, driverId: number | null): Promise<ProofFacts | null> {
    return kind === 'toll' ? this.tollFacts(id, issued, driverId) : this.passageFacts(id, issued, driverId);
  }

  private async tollFacts(id: number, issued: number, driverId: number | null): Promise<ProofFacts | null> {
    const toll = await this.db.kysely
      .selectFrom('free_flow_tolls as t')
      .innerJoin('drivers as d', 'd.id', 't.driver_id')
      .selectAll('t')
      .select(['d.name as driver_name', 'd.cpf_cnpj'])
      .where('t.id', '=', id)
      .executeTakeFirst();
    if (!toll || (driverId !== null && toll.driver_id !== driverId)) return null;
    const asOf = (issued + 1) * 1000;
    const occurredAt = toIso(toll.occurred_at);
    const at = Date.parse(occurredAt);
    const tag = (await tagAt(this.db.kysely, [toll.vehicle_id], at)).get(toll.vehicle_id);
    const paidAt = before(toll.paid_at, asOf);
    const cancelled = before(toll.cancelled_at, asOf) !== null;
    let pagamento: ProofFacts['pagamento'] = null;
    if (paidAt !== null) {
      const payer = proofPayerText(await this.tollPayers(toll.id));
      pagamento = { pagoEm: paidAt, pagoPor: cancelled ? proofMessages.cancelledPaid(payer) : payer, autenticacao: toll.authentication };
    } else if (cancelled && toll.cancelled_at !== null) {
      // The contract's facts have no field of their own for it: the payment's says nothing is owed.
      pagamento = { pagoEm: toIso(toll.cancelled_at), pagoPor: proofMessages.cancelledUnpaid, autenticacao: null };
    }
    return {
      codigo: await this.code('toll', toll.id, issued),
      tipo: 'PEDAGIO_SEM_CANCELA',
      placa: toll.plate,
      titular: toll.driver_name,
      documentoMascarado: maskCpfCnpj(toll.cpf_cnpj),
      momento: occurredAt,
      local: tollPlace(toll),
      valor: centsToReais(Number(toll.amount_cents)),
      tag: tag
        ? {
            serialNumber: tag.serialNumber,
            operadora: this.operatorName(tag.operatorCnpj),
            ativaDesde: tag.activatedAt,
            ativaNoMomento: tag.activeThen,
          }
        : null,
      saldoNoMomento: centsToReais(await balanceJustBefore(this.db, toll.driver_id, occurredAt)),
      pagamento,
      emitidoEm: new Date(issued * 1000).toISOString(),
    };
  }

  private async passageFacts(id: number, issued: number, driverId: number | null): Promise<ProofFacts | null> {
    const passage = await this.db.kysely
      .selectFrom('passages as p')
      .innerJoin('drivers as d', 'd.id', 'p.driver_id')
      .innerJoin('tags as t', 't.id', 'p.tag_id')
      .innerJoin('vehicles as v', 'v.id', 't.vehicle_id')
      .select([
        'p.id',
        'p.driver_id',
        'p.serial_number',
        'p.operator_cnpj',
        'p.place_name',
        'p.occurred_at',
        'p.amount_cents',
        't.activated_at',
        'v.license_plate',
        'd.name as driver_name',
        'd.cpf_cnpj',
      ])
      .where('p.id', '=', id)
      .executeTakeFirst();
    if (!passage || (driverId !== null && passage.driver_id !== driverId)) return null;
    const asOf = (issued + 1) * 1000;
    const occurredAt = toIso(passage.occurred_at);
    const activatedAt = passage.activated_at === null ? null : toIso(passage.activated_at);
    const entries = await this.db.kysely
      .selectFrom('passage_payments as pp')
      .innerJoin('ledger_entries as e', 'e.id', 'pp.entry_id')
      .select(['pp.account', 'e.created_at'])
      .where('pp.passage_id', '=', passage.id)
      .orderBy('pp.id')
      .execute();
    const paid = entries.flatMap((e) => {
      const at = before(e.created_at, asOf);
      return at === null ? [] : [{ account: e.account, at }];
    });
    const lastPaid = paid
      .map((p) => p.at)
      .sort()
      .at(-1);
    return {
      codigo: await this.code('passage', passage.id, issued),
      tipo: 'PASSAGEM',
      placa: passage.license_plate,
      titular: passage.driver_name,
      documentoMascarado: maskCpfCnpj(passage.cpf_cnpj),
      momento: occurredAt,
      local: passage.place_name,
      valor: centsToReais(Number(passage.amount_cents)),
      // The passage's own tag: the operator charged it, so it read at the plaza; active then when activated before.
      tag: {
        serialNumber: passage.serial_number,
        operadora: this.operatorName(passage.operator_cnpj),
        ativaDesde: activatedAt,
        ativaNoMomento: activatedAt !== null && Date.parse(activatedAt) <= Date.parse(occurredAt),
      },
      saldoNoMomento: centsToReais(await balanceJustBefore(this.db, passage.driver_id, occurredAt)),
      pagamento:
        lastPaid === undefined ? null : { pagoEm: lastPaid, pagoPor: proofPayerText(paid.map((p) => p.account)), autenticacao: null },
      emitidoEm: new Date(issued * 1000).toISOString(),
    };
  }

  private async tollPayers(tollId: number): Promise<ProofPayerAccount[]> {
    const rows = await this.db.kysely
      .selectFrom('free_flow_payments')
      .select('account')
      .where('toll_id', '=', tollId)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.account);
  }

  private operatorName(cnpj: string): string {
    return this.catalogue.operator(cnpj)?.name ?? formatCpfCnpj(cnpj);
  }
}

/**
 * The Saldo available for the passage: from the ledger, as it stood a millisecond before the
 * moment. A tag passage's own debit is dated at its moment (passages/record.ts), so the balance
 * at the moment would already be less the passage it paid.
 */
function balanceJustBefore(db: Db, driverId: number, occurredAt: string): Promise<number> {
  return balanceAt(db.kysely, driverId, new Date(Date.parse(occurredAt) - 1).toISOString());
}

/** The instant as ISO when it is before `limit` (epoch ms, exclusive), else null. */
function before(value: Date | string | null, limit: number): string | null {
  if (value === null) return null;
  const iso = toIso(value);
  return Date.parse(iso) < limit ? iso : null;
}
