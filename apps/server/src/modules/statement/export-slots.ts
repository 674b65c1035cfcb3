import type { ServerResponse } from 'node:http';

/**
 * Exports in flight in this process: one per driver at a time, and a few in all. A PDF of a long
 * history costs seconds of this process's CPU (pdfkit, about 2,700 rows a second): without a bound,
 * one driver pressing 'Exportar PDF' many times, or many accounts at once, would slow every
 * other driver's call. A refused request changes nothing and may simply be repeated.
 */
export class ExportSlots {
  private readonly drivers = new Set<number>();

  constructor(private readonly maxInFlight = 4) {}

  /** A release function, or why not: this driver already exports, or the process is at its bound. */
  take(driverId: number): (() => void) | 'driver-busy' | 'server-busy' {
    if (this.drivers.has(driverId)) return 'driver-busy';
    if (this.drivers.size >= this.maxInFlight) return 'server-busy';
    this.drivers.add(driverId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.drivers.delete(driverId);
    };
  }
}

/**
 * An export whose client takes nothing for `stallMs` is closed, and its slot freed (issue 21,
 * point 8: four clients that opened a long PDF and never read held every slot, and every other
 * driver's export got 503 for minutes). The socket's own inactivity timer measures it: it restarts
 * whenever bytes are written or read, and Node lets it pass while a pending write is still being
 * taken by the client, however slowly; a client that reads nothing stops both. When the answer is
 * sent whole, the server puts the connection's own timeouts back.
 */
export function closeWhenStalled(res: ServerResponse, stallMs: number): void {
  res.setTimeout(stallMs, () => res.destroy());
}
