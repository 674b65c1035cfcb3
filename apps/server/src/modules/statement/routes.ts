import { api } from '@portal/contract';
import { refuse, serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverFileRoute, driverRoute } from '../../http/route.js';
import { closeWhenStalled, ExportSlots } from './export-slots.js';
import type { StatementService } from './service.js';

export interface StatementRoutesOptions {
  /** The clock the periods are read with ('este-mes'); tests pin it. */
  now?: () => Date;
  /** Exports streaming at once in this process (one per driver). */
  maxExportsInFlight?: number;
  /** An export whose client takes nothing for this long is closed (EXPORT_STALL_TIMEOUT_MS). */
  exportStallMs?: number;
}

export function statementRoutes(app: FastifyInstance, statement: StatementService, options: StatementRoutesOptions = {}): void {
  const now = options.now ?? (() => new Date());
  driverRoute(app, api.statement, async ({ driver, query }) => {
    const { page: pageNumber, ...filters } = query;
    const page = await statement.pageWithTotals(driver.id, pageNumber, filters, now());
    return {
      Sucesso: true,
      Mensagem: serverMessages.statement.ok,
      Transacoes: page.transactions,
      Paginacao: { TotalPaginas: page.totalPages },
      Totais: page.totals,
    };
  });
  driverRoute(app, api.statementVehicles, async ({ driver }) => ({
    Sucesso: true,
    Mensagem: serverMessages.statement.vehiclesOk,
    Veiculos: await statement.plates(driver.id),
  }));
  const slots = new ExportSlots(options.maxExportsInFlight);
  const stallMs = options.exportStallMs ?? 30_000;
  // Only the signed-in driver's id reaches the export: another driver's rows cannot be asked for.
  driverFileRoute(app, api.statementExport, async ({ driver, query, reply }) => {
    const release = slots.take(driver.id);
    if (release === 'driver-busy') throw refuse.tooMany(serverMessages.statement.exportBusy);
    if (release === 'server-busy') throw refuse.unavailable(serverMessages.statement.exportServerBusy);
    // Freed when the answer is sent whole, or the client leaves, or the export fails before.
    reply.raw.once('close', release);
    try {
      const { formato, ...filters } = query;
      const answer = await statement.export(driver.id, formato, filters, now());
      // A client that stops reading holds its slot at most this long.
      closeWhenStalled(reply.raw, stallMs);
      return answer;
    } catch (error) {
      release();
      throw error;
    }
  });
}
