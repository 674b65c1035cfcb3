import { api } from '@portal/contract';
import { driverDataMessages, refuse } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverFileRoute } from '../../http/route.js';
import { closeWhenStalled, ExportSlots } from '../statement/export-slots.js';
import type { DriverDataService } from './service.js';

export interface DriverDataRoutesOptions {
  /** Downloads streaming at once in this process (one per driver). */
  maxInFlight?: number;
  /** A download whose client takes nothing for this long is closed. */
  stallMs?: number;
}

/** GET /api/motorista/dados/exportar: the driver's data as a ZIP (issue 35, point 1), one at a time per driver. */
export function driverDataRoutes(app: FastifyInstance, data: DriverDataService, options: DriverDataRoutesOptions = {}): void {
  const slots = new ExportSlots(options.maxInFlight);
  const stallMs = options.stallMs ?? 30_000;
  driverFileRoute(app, api.driverDataExport, async ({ driver, req, reply }) => {
    const release = slots.take(driver.id);
    if (release === 'driver-busy') throw refuse.tooMany(driverDataMessages.busy);
    if (release === 'server-busy') throw refuse.unavailable(driverDataMessages.serverBusy);
    reply.raw.once('close', release);
    try {
      const answer = await data.export(driver.id, req.ip);
      closeWhenStalled(reply.raw, stallMs);
      return answer;
    } catch (error) {
      release();
      throw error;
    }
  });
}
