import { partnerMovementRequest, partnerPassageRequest, partnerVpoRequest, partnerVpoUpdateRequest } from '@portal/contract';
import type { VpoDetails } from '@portal/contract';
import type { PartnerKind } from '@portal/domain';
import {
  formatBrl,
  formatDateTime,
  formatSerial,
  PARTNER_KINDS,
  reaisToCents,
  Refusal,
  STATEMENT_ORIGINS,
  vpoRoute,
  vpoStatusLabel,
} from '@portal/domain';
import type { z } from 'zod';
import type { Db } from '../db/connection.js';
import type { Partner } from '../modules/partners/keys.js';
import { LedgerPushes } from '../modules/partners/ledger-pushes.js';
import type { PushAnswer } from '../modules/partners/pushes.js';
import { PartnerService } from '../modules/partners/service.js';
import { VpoPushes } from '../modules/partners/vpo-pushes.js';
import { VpoService } from '../modules/vpos/service.js';
import type { PushResult } from '../modules/vpos/service.js';
import { Catalogue } from '../modules/tags/catalogue.js';
import type { OperatorEntry } from '../modules/tags/catalogue.js';
import { CliFailure } from './pix.js';

/** '--kind shipper --name "X" --third' -> { kind: 'shipper', name: 'X', third: 'true' }, plus the positional arguments. */
export function parseFlags(args: string[]): { flags: Record<string, string>; positional: string[] } {
  const flags: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags[arg.slice(2, eq)] = arg.slice(eq + 1);
      continue;
    }
    const next = args[i + 1];
    if (next === undefined || next.startsWith('--')) flags[arg.slice(2)] = 'true';
    else {
      flags[arg.slice(2)] = next;
      i++;
    }
  }
  return { flags, positional };
}

/** The kinds as the CLI spells them: a concessionaire is `--kind concessionaria` (decision 76). */
const CLI_KINDS: Record<string, PartnerKind> = {
  ...Object.fromEntries(PARTNER_KINDS.map((k) => [k, k])),
  concessionaria: 'concessionaire',
};
const CLI_KIND_NAMES = ['shipper', 'operator', 'platform', 'concessionaria'];

function kindOf(value: string): PartnerKind | null {
  return Object.hasOwn(CLI_KINDS, value) ? (CLI_KINDS[value] ?? null) : null;
}

/** --operator <name or CNPJ> -> the operator of the catalogue, or a failure that lists them. */
function operatorFlag(value: string | undefined): OperatorEntry {
  const catalogue = new Catalogue();
  const known = catalogue.operators.map((o) => `${o.name} (${o.cnpj})`).join(', ');
  if (value === undefined || value === 'true' || !value.trim()) {
    throw new CliFailure(`Chaves de operadora exigem --operator <nome ou CNPJ da operadora>: ${known}.`);
  }
  const found = catalogue.findOperator(value);
  if (!found) throw new CliFailure(`Operadora não encontrada: ${value}. Use o nome ou o CNPJ de uma destas: ${known}.`);
  return found;
}

/**
 * partner:create: the key is printed once, alone on the last line (only its hash is stored). An
 * operator key belongs to one operator (--operator): it charges only that operator's tags.
 */
export async function createPartner(db: Db, args: string[]): Promise<string> {
  const { flags } = parseFlags(args);
  const kind = kindOf(flags.kind ?? '');
  const name = (flags.name ?? '').trim();
  if (!kind) throw new CliFailure(`Informe --kind ${CLI_KIND_NAMES.join('|')}.`);
  if (!name) throw new CliFailure('Informe --name <nome do parceiro>.');
  if (kind !== 'operator' && flags.operator !== undefined) throw new CliFailure('--operator vale só para --kind operator.');
  const operator = kind === 'operator' ? operatorFlag(flags.operator) : null;
  const { id, key } = await new PartnerService(db).create(kind, name, operator?.cnpj ?? null);
  return [
    `Parceiro ${id} (${kind}${operator ? `, operadora ${operator.name}` : ''}) criado: ${name}.`,
    'Guarde a chave de API abaixo: ela não será mostrada novamente (envie-a no cabeçalho X-Api-Key).',
    key,
  ].join('\n');
}

export async function listPartners(db: Db): Promise<string> {
  const rows = await new PartnerService(db).list();
  if (rows.length === 0) return 'Nenhum parceiro cadastrado.';
  const catalogue = new Catalogue();
  const scopeOf = (r: (typeof rows)[number]) => {
    if (r.kind !== 'operator') return '';
    if (r.operatorCnpj === null) return '  [sem operadora: use partner:scope]';
    return `  [operadora ${catalogue.operator(r.operatorCnpj)?.name ?? r.operatorCnpj}]`;
  };
  return rows
    .map(
      (r) => `${r.id}  ${r.kind.padEnd(14)}  ${r.prefix}…  ${r.revokedAt ? `revogado em ${r.revokedAt}` : 'ativo'}  ${r.name}${scopeOf(r)}`,
    )
    .join('\n');
}

/** partner:scope: binds an operator key created before keys were scoped (it is refused until then). */
export async function scopePartner(db: Db, args: string[]): Promise<string> {
  const { flags, positional } = parseFlags(args);
  const id = Number(positional[0]);
  if (!Number.isSafeInteger(id) || id <= 0) throw new CliFailure('Informe o id do parceiro: partner:scope <id> --operator <nome ou CNPJ>');
  const operator = operatorFlag(flags.operator);
  const outcome = await new PartnerService(db).scope(id, operator.cnpj);
  if (outcome === 'not-found') throw new CliFailure(`Parceiro não encontrado: ${id}`);
  if (outcome === 'not-operator') throw new CliFailure(`O parceiro ${id} não é uma operadora.`);
  if (outcome === 'already-scoped') {
    throw new CliFailure(`O parceiro ${id} já pertence a outra operadora. Para outra operadora, crie uma nova chave (partner:create).`);
  }
  return `Chave do parceiro ${id} vinculada à operadora ${operator.name}.`;
}

export async function revokePartner(db: Db, args: string[]): Promise<string> {
  const id = Number(args[0]);
  if (!Number.isSafeInteger(id) || id <= 0) throw new CliFailure('Informe o id do parceiro: partner:revoke <id>');
  if (!(await new PartnerService(db).revoke(id))) throw new CliFailure(`Parceiro não encontrado: ${id}`);
  return `Chave do parceiro ${id} revogada.`;
}

export async function partnerOf(db: Db, flags: Record<string, string>, kind: PartnerKind): Promise<Partner> {
  const id = Number(flags.partner);
  if (!Number.isSafeInteger(id) || id <= 0) throw new CliFailure('Informe --partner <id do parceiro> (veja partner:list).');
  const partner = await new PartnerService(db).byId(id);
  if (!partner) throw new CliFailure(`Parceiro não encontrado: ${id}`);
  if (partner.kind !== kind) throw new CliFailure(`O parceiro ${id} é do tipo ${partner.kind}; este comando exige ${kind}.`);
  return partner;
}

export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(corpo)'}: ${i.message}`);
  throw new CliFailure(`Dados inválidos:\n${lines.join('\n')}`);
}

export const money = (value: string | undefined) => (value === undefined ? undefined : Number(value.replace(',', '.')));

/** The same answers as the API: a replay (or an old duplicate) changed nothing. */
async function push(run: () => Promise<PushAnswer | PushResult>, what: string): Promise<string> {
  try {
    const r = await run();
    const { id, duplicate } = 'body' in r ? { id: r.body.id, duplicate: r.replayed || r.body.duplicate === true } : r;
    return duplicate ? `${what} já recebido antes (id ${id}); nada foi alterado.` : `${what} registrado (id ${id}).`;
  } catch (error) {
    if (error instanceof Refusal) throw new CliFailure(error.message);
    throw error;
  }
}

/** The same service as POST /api/parceiro/vpos, for shippers without an integration. */
export async function issueVpo(db: Db, args: string[]): Promise<string> {
  const { flags } = parseFlags(args);
  const partner = await partnerOf(db, flags, 'shipper');
  const body = parse(partnerVpoRequest, {
    externalId: flags.externalId,
    serialNumber: flags.serial,
    PlacaVeiculo: flags.plate,
    CpfCnpjEmbarcador: flags.shipper,
    ValorTotalVP: money(flags.value),
    Status: flags.status,
    origem: flags.origem,
    destino: flags.destino,
    inicioViagem: flags.inicio,
    fimViagem: flags.fim,
    idVpoAntt: flags.antt,
    rntrc: flags.rntrc,
    eixos: flags.eixos === undefined ? undefined : Number(flags.eixos),
  });
  return push(() => new VpoPushes(db, new VpoService(db)).issue(partner, body), 'VPO');
}

/** The same answer as GET /api/parceiro/vpos/:externalId, as lines an operator reads. */
export async function showVpo(db: Db, args: string[]): Promise<string> {
  const { flags } = parseFlags(args);
  const partner = await partnerOf(db, flags, 'shipper');
  if (!flags.externalId) throw new CliFailure('Informe --externalId <id do VPO no parceiro>.');
  const externalId = flags.externalId;
  let vpo: VpoDetails;
  try {
    vpo = await new VpoService(db).forShipper(partner, externalId);
  } catch (error) {
    if (error instanceof Refusal) throw new CliFailure(error.message);
    throw error;
  }
  const money = (reais: number) => formatBrl(reaisToCents(reais));
  const lines = [
    `VPO ${vpo.externalId} (id ${vpo.IdTransacao}) · ${vpoStatusLabel(vpo.Status)} · ANTT ${vpo.idVpoAntt ?? '—'}`,
    `Tag ${formatSerial(vpo.serialNumber)} · placa ${vpo.PlacaVeiculo} · RNTRC ${vpo.rntrc ?? '—'} · eixos ${vpo.eixos ?? '—'}`,
    `Rota: ${vpoRoute(vpo.origem, vpo.destino)} · viagem ${vpo.inicioViagem ? formatDateTime(vpo.inicioViagem) : '—'} a ${vpo.fimViagem ? formatDateTime(vpo.fimViagem) : '—'}`,
    `Valor ${money(vpo.ValorTotalVP)} · utilizado ${money(vpo.Utilizado)} · restante ${money(vpo.Restante)} · devolvido ${money(vpo.Devolvido)} · pago do saldo do motorista ${money(vpo.PagoPeloSaldo)}`,
    `Passagens (${vpo.Passagens.length}):`,
    ...vpo.Passagens.map(
      (p) => `  ${formatDateTime(p.occurredAt)}  ${p.placeName}  ${money(p.value)}  ${p.pagoPor === 'VPO' ? 'pelo VPO' : 'do saldo'}`,
    ),
  ];
  return lines.join('\n');
}

/** The same service as PATCH /api/parceiro/vpos/:externalId. */
export async function updateVpo(db: Db, args: string[]): Promise<string> {
  const { flags } = parseFlags(args);
  const partner = await partnerOf(db, flags, 'shipper');
  const body = parse(partnerVpoUpdateRequest, { Status: flags.status });
  if (!flags.externalId) throw new CliFailure('Informe --externalId <id do VPO no parceiro>.');
  const externalId = flags.externalId;
  return push(() => new VpoService(db).updateStatus(partner, externalId, body.Status), 'Status do VPO');
}

/** The same service as POST /api/parceiro/passagens, for operators without an integration. */
export async function recordPassage(db: Db, args: string[], duplicateMinutes?: number): Promise<string> {
  const { flags } = parseFlags(args);
  const partner = await partnerOf(db, flags, 'operator');
  const body = parse(partnerPassageRequest, {
    externalId: flags.externalId,
    serialNumber: flags.serial,
    placeName: flags.place,
    value: money(flags.value),
    occurredAt: flags.at ?? new Date().toISOString(),
    is_third: flags.third === 'true',
  });
  return push(() => new LedgerPushes(db, undefined, duplicateMinutes).recordPassage(partner, body), 'Passagem');
}

/** The same service as POST /api/parceiro/terceiro/movimentos. */
export async function recordThirdParty(db: Db, args: string[]): Promise<string> {
  const { flags } = parseFlags(args);
  const partner = await partnerOf(db, flags, 'platform');
  const origin =
    flags.type === 'credito'
      ? STATEMENT_ORIGINS.thirdPartyCredit
      : flags.type === 'debito'
        ? STATEMENT_ORIGINS.thirdPartyDebit
        : flags.origin;
  const body = parse(partnerMovementRequest, {
    externalId: flags.externalId,
    cpfCnpj: flags.cpfCnpj,
    origin,
    value: money(flags.value),
    placeName: flags.place,
    occurredAt: flags.at ?? new Date().toISOString(),
  });
  return push(() => new LedgerPushes(db).recordThirdPartyMovement(partner, body), 'Movimento de terceiro');
}
