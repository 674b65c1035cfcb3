/**
 * Issue 38, point 1: the size of a year of the portal, and what `fraction` of it holds. The first
 * six figures are the issue's; the others are this bench's choices (bench/README.md, "scale").
 */
const FULL_YEAR = {
  drivers: 1_000_000,
  tags: 1_500_000,
  /** Every ledger entry: passages, tag fees, purchases, VPO money, refunds, free-flow tolls. */
  movements: 50_000_000,
  passages: 40_000_000,
  vpos: 500_000,
  contests: 200_000,
  /** Companies (CNPJ) among the drivers: the few with many trucks and most of the passages. */
  carriers: 5_000,
  /** Free-flow tolls of the opted-in plates (decision 76): what the daily deadline notices read. */
  freeFlowTolls: 1_000_000,
} as const;

/** The full year's tags: the billing's time per tag is multiplied by it. */
export const FULL_TAGS = FULL_YEAR.tags;

export interface ScaleShape {
  fraction: number;
  drivers: number;
  carriers: number;
  /** Drivers with a CPF: one tag each. */
  individuals: number;
  tags: number;
  /** Tags of the carriers' trucks: tags - individuals. */
  carrierTags: number;
  movements: number;
  passages: number;
  vpos: number;
  contests: number;
  freeFlowTolls: number;
}

/** The counts at `fraction` of the full year (each at least 1; the carriers' tags at least one per carrier). */
export function shapeAt(fraction: number): ScaleShape {
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`fração inválida: ${fraction}`);
  const of = (full: number) => Math.max(1, Math.round(full * fraction));
  const drivers = Math.max(2, of(FULL_YEAR.drivers));
  const carriers = Math.min(drivers - 1, of(FULL_YEAR.carriers));
  const individuals = drivers - carriers;
  const tags = Math.max(individuals + carriers, of(FULL_YEAR.tags));
  return {
    fraction,
    drivers,
    carriers,
    individuals,
    tags,
    carrierTags: tags - individuals,
    movements: of(FULL_YEAR.movements),
    passages: of(FULL_YEAR.passages),
    vpos: of(FULL_YEAR.vpos),
    contests: of(FULL_YEAR.contests),
    freeFlowTolls: of(FULL_YEAR.freeFlowTolls),
  };
}

/** How the year is drawn (every draw a hash of the row's numbers: the same data at every build). */
export const DRAW = {
  /** Carrier c holds tags in proportion to c^-CARRIER_EXPONENT (a Zipf-like law: a few large fleets). */
  carrierExponent: 0.7,
  /** A tag's passages: its base weight (a carrier's truck runs five times a driver's own) times u^-TAIL, capped. */
  carrierTagWeight: 5,
  individualTagWeight: 1,
  tail: 0.6,
  tailCap: 40,
  /** Share of a driver's (CPF) passages paid from SaldoTerceiro. */
  thirdShare: 0.08,
  /** Share of passages the operator sends days late (the rest within minutes). */
  lateShare: 0.02,
  /** A tag was activated at start + span * ACTIVATION * sqrt(u): the portal grew over the year. */
  activation: 0.9,
  /** Share of the vehicles opted in to free-flow tolls, and of those paying automatically. */
  freeFlowShare: 0.04,
  autoPayShare: 0.8,
  /** Contests answered: the share accepted (the rest refused); the last 7 days' are still open. */
  acceptedShare: 0.3,
  /** Access records (sign-ins) per driver over the retained six months. */
  signInsPerDriver: 6,
} as const;

/** The operators the tags are spread over (src/data/operators.json), SemParar first: the load bench's operator. */
export const SCALE_OPERATORS = [
  { name: 'SemParar', cnpj: '90200002000117', share: 0.6 },
  { name: 'Taggy', cnpj: '90100001000109', share: 0.25 },
  { name: 'ConectCar', cnpj: '90400004000150', share: 0.15 },
] as const;

/** Shippers issuing VPOs (decision 52). */
export const SCALE_SHIPPERS = 20;

export const HIGHWAYS = [
  'SP-348 Bandeirantes',
  'SP-330 Anhanguera',
  'BR-116 Dutra',
  'BR-381 Fernão Dias',
  'SP-280 Castello Branco',
  'BR-101 Rio-Santos',
  'SP-310 Washington Luís',
  'BR-277 Paraná',
] as const;

export const CITIES = ['São Paulo', 'Campinas', 'Santos', 'Curitiba', 'Rio de Janeiro', 'Belo Horizonte', 'Goiânia', 'Uberlândia'] as const;

/** The password every generated driver signs in with: one argon2 hash, made once by the server's own hasher. */
export const SCALE_PASSWORD = 'benchmark123';

/** A fraction as a database name's tail: 0.02 -> f0_02, 1 -> f1. */
export function fractionTag(fraction: number): string {
  return `f${String(fraction).replace('.', '_')}`;
}
