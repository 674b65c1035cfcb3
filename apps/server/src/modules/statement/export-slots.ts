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
