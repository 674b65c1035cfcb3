import type { Vpo } from '@portal/contract';
import { messages, serverMessages, VPO_DEFAULT_TRIP_DAYS } from '@portal/domain';
import { beforeAll, expect, it } from 'vitest';
import { json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import type { DatabaseWatch } from '../../helpers/db-watch.js';
import { watchDatabase } from '../../helpers/db-watch.js';
import { DAY, hours, spAt, useVpoApp } from '../../helpers/vpos.js';

/** Decision 52: the trip's fields as ANTT knows them (its id, the carrier's RNTRC, the axles), the route and the window the money is for. */
describeEachDatabase('VPO: os dados da viagem', (dialect) => {
  const t = useVpoApp(dialect);
  let watch: DatabaseWatch;
  beforeAll(async () => {
    watch = await watchDatabase(t.db());
  });
  const stored = (id: number) => t.vpoRow(id);
  const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

  it('idVpoAntt, rntrc, eixos, origem, destino and the window are stored and answered to the driver and the shipper', async () => {
    const d = await t.driver({ RntrcAntt: '12345678', axles: 5, vehicleType: 2 });
    const s = await t.shipper();
    const [inicioViagem, fimViagem] = [spAt(-hours(1)), spAt(3 * DAY)];
    const vpo = await t.issued(s, d.tag, {
      idVpoAntt: 'VPO.2026/000987-A',
      // Written the way a carrier's papers write it: the vehicle's RNTRC all the same.
      rntrc: '12.345.678',
      eixos: 5,
      origem: 'Porto Alegre (RS)',
      destino: 'Manaus (AM)',
      inicioViagem,
      fimViagem,
    });

    const row = await stored(vpo.id);
    expect({
      antt_id: row.antt_id,
      rntrc: row.rntrc,
      axles: row.axles,
      origin: row.origin,
      destination: row.destination,
      trip_start: iso(row.trip_start),
      trip_end: iso(row.trip_end),
    }).toEqual({
      antt_id: 'VPO.2026/000987-A',
      rntrc: '12345678',
      axles: 5,
      origin: 'Porto Alegre (RS)',
      destination: 'Manaus (AM)',
      trip_start: iso(inicioViagem),
      trip_end: iso(fimViagem),
    });
    const answered = {
      idVpoAntt: 'VPO.2026/000987-A',
      rntrc: '12345678',
      eixos: 5,
      origem: 'Porto Alegre (RS)',
      destino: 'Manaus (AM)',
      inicioViagem: iso(inicioViagem),
      fimViagem: iso(fimViagem),
    };
    expect(await t.driverVpo(d, vpo.id)).toMatchObject(answered);
    expect(json<{ VPO: Vpo }>(await t.partnerVpo(s, vpo.externalId)).VPO).toMatchObject(answered);
    const list = json<{ VPOS: Vpo[] }>(await t.get(d, '/api/pedagio/motoristaVpos')).VPOS;
    expect(list.find((v) => v.IdTransacao === String(vpo.id))).toMatchObject(answered);
  });

  it('without a window, the trip runs from the issue for 15 days; the fields not sent are null', async () => {
    const d = await t.driver();
    const s = await t.shipper();
    const before = Date.now();
    const body = t.vpoBody(d.tag, { origem: undefined, destino: undefined });
    const res = await t.issue(s, body);
    const after = Date.now();
    expect(res.statusCode, res.body).toBe(201);
    const row = await stored(Number(json<{ id: string }>(res).id));
    const start = new Date(row.trip_start ?? 0).getTime();
    const end = new Date(row.trip_end ?? 0).getTime();
    expect(start).toBeGreaterThanOrEqual(before - 1000);
    expect(start).toBeLessThanOrEqual(after);
    expect(end - start).toBe(VPO_DEFAULT_TRIP_DAYS * DAY);
    expect(row).toMatchObject({ antt_id: null, rntrc: null, axles: null, origin: null, destination: null });
    expect(await t.driverVpo(d, row.id)).toMatchObject({
      inicioViagem: new Date(start).toISOString(),
      fimViagem: new Date(end).toISOString(),
      idVpoAntt: null,
      rntrc: null,
      eixos: null,
      origem: null,
      destino: null,
    });

    // Only the start: 15 days from it. Only the end: from now to it.
    const onlyStart = spAt(hours(5));
    const fromStart = await stored((await t.issued(s, d.tag, { inicioViagem: onlyStart, fimViagem: undefined })).id);
    expect(new Date(fromStart.trip_end ?? 0).getTime() - new Date(onlyStart).getTime()).toBe(VPO_DEFAULT_TRIP_DAYS * DAY);
    const onlyEnd = spAt(2 * DAY);
    const toEnd = await stored((await t.issued(s, d.tag, { inicioViagem: undefined, fimViagem: onlyEnd })).id);
    expect(iso(toEnd.trip_end)).toBe(iso(onlyEnd));
    expect(Math.abs(new Date(toEnd.trip_start ?? 0).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("an RNTRC that is not the vehicle's is a 422 on rntrc, and nothing is written", async () => {
    const d = await t.driver({ RntrcAntt: '12345678' });
    const s = await t.shipper();
    const before = await watch.changes();
    const balances = await t.accounts(d);
    for (const rntrc of ['87654321', '012345678', '1234567-9']) {
      const res = await t.issue(s, t.vpoBody(d.tag, { rntrc }));
      expect(res.statusCode, res.body).toBe(422);
      expect(json(res)).toEqual({
        Sucesso: false,
        Mensagem: serverMessages.partner.rntrcMismatch,
        errors: { rntrc: [serverMessages.partner.rntrcMismatch] },
      });
    }
    // Not an RNTRC at all: the contract's own message.
    const malformed = await t.issue(s, t.vpoBody(d.tag, { rntrc: 'ABC' }));
    expect(malformed.statusCode).toBe(422);
    expect(json(malformed)).toMatchObject({ errors: { rntrc: [messages.tag.rntrcInvalid] } });
    expect(await watch.changes()).toBe(before);
    expect(await t.accounts(d)).toEqual(balances);
    expect(json<{ VPOS: Vpo[] }>(await t.get(d, '/api/pedagio/motoristaVpos')).VPOS).toEqual([]);
  });

  it('a window that cannot be a trip is a 422 with the domain message on its field, and nothing is written', async () => {
    const d = await t.driver();
    const s = await t.shipper();
    const cases: [Record<string, unknown>, 'inicioViagem' | 'fimViagem', string][] = [
      [{ inicioViagem: spAt(DAY), fimViagem: spAt(hours(2)) }, 'fimViagem', messages.partner.tripEndBeforeStart],
      [{ inicioViagem: spAt(DAY), fimViagem: spAt(DAY) }, 'fimViagem', messages.partner.tripEndBeforeStart],
      [{ inicioViagem: spAt(-hours(1)), fimViagem: spAt(61 * DAY) }, 'fimViagem', messages.partner.tripTooLong],
      [{ inicioViagem: spAt(-3 * DAY), fimViagem: spAt(-hours(1)) }, 'fimViagem', messages.partner.tripEnded],
      [{ fimViagem: spAt(-hours(1)) }, 'fimViagem', messages.partner.tripEndBeforeStart],
      [{ inicioViagem: spAt(61 * DAY) }, 'inicioViagem', messages.partner.tripStartTooFar],
      [{ inicioViagem: '2026-02-30T10:00:00-03:00' }, 'inicioViagem', messages.partner.occurredAtInvalid],
      [{ fimViagem: 'amanhã' }, 'fimViagem', messages.partner.occurredAtInvalid],
      [{ fimViagem: '2026-12-01T10:00:00' }, 'fimViagem', messages.partner.occurredAtInvalid],
    ];
    const before = await watch.changes();
    for (const [window, field, message] of cases) {
      const res = await t.issue(s, t.vpoBody(d.tag, window));
      const what = `${JSON.stringify(window)} -> ${res.body}`;
      expect(res.statusCode, what).toBe(422);
      expect(json<{ Sucesso: boolean; errors: Record<string, string[]> }>(res), what).toMatchObject({
        Sucesso: false,
        errors: { [field]: [message] },
      });
    }
    expect(await watch.changes()).toBe(before);
    expect(await t.accounts(d)).toMatchObject({ vpo: 0 });
  });
});
