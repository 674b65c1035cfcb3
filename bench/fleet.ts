import { ACTING_ACCOUNT_HEADER, roleAllows } from '@portal/domain';
import type { BenchDatabase } from './api.js';
import { openBenchApp } from './app.js';
import { median } from './lib.js';
import { FleetAccess } from '../apps/server/src/modules/fleet/access.js';
import { SessionStore } from '../apps/server/src/modules/auth/sessions.js';

export interface Spread {
  medianMs: number;
  p99Ms: number;
  maxMs: number;
}

export interface FleetAuthorizationResult {
  database: BenchDatabase;
  vehicles: number;
  members: number;
  setupSeconds: number;
  /** FleetAccess.resolve and roleAllows, what every call on a company's account runs first, in process. */
  check: Spread & { samples: number };
  /** GET /api/veiculo/listar?page=1 through app.inject: the company's own login, and a Motorista acting on it (X-Conta). */
  call: { own: Spread; motorista: Spread; samples: number; addedMedianMs: number; ratio: number };
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { medianMs: median(values), p99Ms: at(0.99), maxMs: sorted.at(-1) ?? 0 };
}

/** A deterministic stream of numbers in [0, 1): the same members asked in every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * Issue 37: a company of `vehicles` trucks and `members` people (one Gestor, one Financeiro, the
 * rest Motoristas with one or two trucks each), written straight to the database; then the
 * authorization check of a call on the company's account, for random members, `samples` times;
 * and the same read as the company's own login and as a Motorista, alternating, to see what the
 * check adds to a whole call (a baseline in the same run).
 */
export async function benchFleetAuthorization(
  database: BenchDatabase,
  vehicles = 500,
  members = 2000,
  samples = 20_000,
): Promise<FleetAuthorizationResult> {
  const bench = await openBenchApp(`fleet_${database}`, { database });
  try {
    const started = performance.now();
    const db = bench.db.kysely;
    const company = await bench.app.inject({
      method: 'POST',
      url: '/api/user/create-user',
      payload: {
        name: 'Transportes Bench Ltda',
        cpfCnpj: '11222333000181',
        phoneNumber: '11987654321',
        password: 'benchmark123',
        password_confirmation: 'benchmark123',
        type: 'driver',
      },
    });
    if (company.statusCode !== 201) throw new Error(`company: ${company.statusCode} ${company.body}`);
    const { Token: companyToken, User } = company.json<{ Token: string; User: { id: number } }>();
    const companyId = User.id;
    const now = new Date().toISOString();
    const vehicleIds: number[] = [];
    for (let start = 0; start < vehicles; start += 250) {
      const rows = await db
        .insertInto('vehicles')
        .values(
          Array.from({ length: Math.min(250, vehicles - start) }, (_, i) => ({
            driver_id: companyId,
            license_plate: `BEN${String(start + i).padStart(4, '0')}`,
            cpf_cnpj_antt: '',
            rntrc_antt: '12345678',
            axles: 6,
            vehicle_type: 2,
            model_id: 'scania-r-450',
            created_at: now,
            deleted_at: null,
          })),
        )
        .returning('id')
        .execute();
      vehicleIds.push(...rows.map((r) => r.id));
    }
    const people: { id: number; name: string; cpfCnpj: string; memberId: number; role: 'gestor' | 'financeiro' | 'motorista' }[] = [];
    for (let start = 0; start < members; start += 250) {
      const batch = Array.from({ length: Math.min(250, members - start) }, (_, i) => {
        const n = start + i;
        return {
          name: `Pessoa ${n}`,
          cpf_cnpj: String(10_000_000_000 + n),
          phone_number: '11900000000',
          password_hash: '',
          created_at: now,
        };
      });
      const persons = await db.insertInto('drivers').values(batch).returning(['id', 'name', 'cpf_cnpj']).execute();
      const rows = await db
        .insertInto('company_members')
        .values(
          persons.map((p, i) => ({
            company_id: companyId,
            cpf: p.cpf_cnpj,
            person_id: p.id,
            role: start + i === 0 ? ('gestor' as const) : start + i === 1 ? ('financeiro' as const) : ('motorista' as const),
            state: 'ativo' as const,
            invited_by: companyId,
            invited_at: now,
            accepted_at: now,
          })),
        )
        .returning(['id', 'person_id', 'role'])
        .execute();
      rows.forEach((r, i) => {
        const p = persons[i];
        if (p) people.push({ id: p.id, name: p.name, cpfCnpj: p.cpf_cnpj, memberId: r.id, role: r.role });
      });
    }
    const motoristas = people.filter((p) => p.role === 'motorista');
    const assignments = motoristas.flatMap((m, i) => {
      const first = vehicleIds[i % vehicleIds.length] ?? 0;
      const second = vehicleIds[(i * 7 + 3) % vehicleIds.length] ?? 0;
      return i % 3 === 0 && second !== first
        ? [
            { vehicle_id: first, member_id: m.memberId },
            { vehicle_id: second, member_id: m.memberId },
          ]
        : [{ vehicle_id: first, member_id: m.memberId }];
    });
    for (let start = 0; start < assignments.length; start += 500) {
      await db
        .insertInto('vehicle_drivers')
        .values(assignments.slice(start, start + 500))
        .execute();
    }
    const setupSeconds = (performance.now() - started) / 1000;

    // The check alone, for random members (a tenth of the samples first, not counted).
    const access = new FleetAccess(db);
    const random = seeded(37);
    const pick = () => people[Math.floor(random() * people.length)] ?? people[0];
    const times: number[] = [];
    for (let i = 0; i < samples * 1.1; i++) {
      const person = pick();
      if (!person) break;
      const t0 = performance.now();
      const resolved = await access.resolve(person, companyId);
      if (!resolved || !roleAllows(resolved.acting.role, 'vehicles')) throw new Error(`${person.name}: sem acesso`);
      const elapsed = performance.now() - t0;
      if (i >= samples * 0.1) times.push(elapsed);
    }

    // A whole call, as the company's own login and as a Motorista, alternating.
    const sessions = new SessionStore(db, 1);
    const motorista = motoristas[0];
    if (!motorista) throw new Error('sem Motorista');
    const motoristaToken = await sessions.create(db, motorista.id);
    const calls = Math.max(200, Math.floor(samples / 20));
    const own: number[] = [];
    const acting: number[] = [];
    const call = async (token: string, header: Record<string, string>) => {
      const t0 = performance.now();
      const res = await bench.app.inject({
        method: 'GET',
        url: '/api/veiculo/listar?page=1',
        headers: { authorization: `Bearer ${token}`, ...header },
      });
      if (res.statusCode !== 200) throw new Error(`listar: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < calls * 1.1; i++) {
      const a = await call(companyToken, {});
      const b = await call(motoristaToken, { [ACTING_ACCOUNT_HEADER]: String(companyId) });
      if (i >= calls * 0.1) {
        own.push(a);
        acting.push(b);
      }
    }
    const ownSpread = spread(own);
    const actingSpread = spread(acting);
    return {
      database,
      vehicles,
      members,
      setupSeconds,
      check: { ...spread(times), samples: times.length },
      call: {
        own: ownSpread,
        motorista: actingSpread,
        samples: own.length,
        addedMedianMs: actingSpread.medianMs - ownSpread.medianMs,
        ratio: actingSpread.medianMs / ownSpread.medianMs,
      },
    };
  } finally {
    await bench.close();
  }
}
