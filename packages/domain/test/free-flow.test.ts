// First: the server imports '@portal/domain/free-flow-deadline' on its own, before or without index.ts.
import { freeFlowDueDay, isBusinessDay } from '../src/free-flow-deadline.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as domain from '../src/index.js';
import {
  contestReasonLabels,
  daysLeft,
  deadlineNoticeStage,
  FREE_FLOW_DEADLINE_DAYS,
  FREE_FLOW_NOTICE_DAYS,
  freeFlowFieldErrors,
  freeFlowInsufficientText,
  freeFlowMessages,
  freeFlowState,
  freeFlowStateLabels,
  notificationMessage,
  TOLL_CONTEST_REASONS,
} from '../src/index.js';
import type { FreeFlowTollInput } from '../src/index.js';

/** An instant by São Paulo's wall clock (UTC−3 since 2019). */
const sp = (wall: string) => new Date(`${wall}-03:00`);

/*
 * An independent reference, written from the laws, for 2024 to 2032: the fixed national holidays
 * (Lei nº 662/1949 as amended by Lei nº 10.607/2002; 12 October by Lei nº 6.802/1980; 20 November
 * by Lei nº 14.759/2023) and Good Friday, two days before Easter (anonymous Gregorian algorithm).
 */
const REFERENCE_FIRST_YEAR = 2024;
const REFERENCE_LAST_YEAR = 2032;
const FIXED_HOLIDAYS = ['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '11-20', '12-25'];

function easter(year: number): { month: number; day: number } {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { month, day };
}

const referenceHolidays = new Set<string>();
for (let year = REFERENCE_FIRST_YEAR; year <= REFERENCE_LAST_YEAR; year++) {
  for (const monthDay of FIXED_HOLIDAYS) referenceHolidays.add(`${year}-${monthDay}`);
  const e = easter(year);
  referenceHolidays.add(new Date(Date.UTC(year, e.month - 1, e.day - 2)).toISOString().slice(0, 10));
}

const utcDay = (day: string) => new Date(`${day}T00:00:00Z`);
const plusDays = (day: string, n: number) => new Date(utcDay(day).getTime() + n * 86_400_000).toISOString().slice(0, 10);

function referenceIsBusinessDay(day: string): boolean {
  const year = Number(day.slice(0, 4));
  if (year < REFERENCE_FIRST_YEAR || year > REFERENCE_LAST_YEAR) throw new Error(`outside the reference table: ${day}`);
  const weekday = utcDay(day).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !referenceHolidays.has(day);
}

/** The São Paulo day by the zone's data (Intl), not by the domain's arithmetic. */
const saoPauloCalendar = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

function referenceDueDay(instant: Date): string {
  let day = plusDays(saoPauloCalendar.format(instant), 30);
  while (!referenceIsBusinessDay(day)) day = plusDays(day, 1);
  return day;
}

describe('free-flow due day (Res. Contran 1.013/2024, art. 7º)', () => {
  it('is the 30th calendar day after the passage when that is a business day', () => {
    // Monday 10 March 2025 -> Wednesday 9 April 2025.
    expect(freeFlowDueDay(sp('2025-03-10T08:15:00'))).toBe('2025-04-09');
    expect(FREE_FLOW_DEADLINE_DAYS).toBe(30);
  });

  it('moves a Saturday or a Sunday to the Monday', () => {
    // 15 May 2025 + 30 = Saturday 14 June.
    expect(freeFlowDueDay(sp('2025-05-15T10:00:00'))).toBe('2025-06-16');
    // 16 May 2025 + 30 = Sunday 15 June.
    expect(freeFlowDueDay(sp('2025-05-16T10:00:00'))).toBe('2025-06-16');
  });

  it('moves a national holiday to the next business day', () => {
    const cases: [passage: string, due: string][] = [
      ['2025-03-22T12:00:00', '2025-04-22'], // Tiradentes, Monday 21 April 2025
      ['2026-03-04T12:00:00', '2026-04-06'], // Sexta-feira Santa, 3 April 2026 (-> Monday)
      ['2026-08-08T12:00:00', '2026-09-08'], // Independência, Monday 7 September 2026
      ['2027-09-12T12:00:00', '2027-10-13'], // Nossa Senhora Aparecida, Tuesday 12 October 2027
      ['2026-10-03T12:00:00', '2026-11-03'], // Finados, Monday 2 November 2026
      ['2027-10-16T12:00:00', '2027-11-16'], // Proclamação da República, Monday 15 November 2027
      ['2025-10-21T12:00:00', '2025-11-21'], // Consciência Negra, Thursday 20 November 2025 (Lei 14.759/2023)
      ['2025-11-25T12:00:00', '2025-12-26'], // Natal, Thursday 25 December 2025
      ['2027-12-02T12:00:00', '2028-01-03'], // Confraternização Universal, Saturday 1 January 2028, then Sunday
      ['2024-04-01T12:00:00', '2024-05-02'], // Dia do Trabalho, Wednesday 1 May 2024
    ];
    for (const [passage, due] of cases) expect(freeFlowDueDay(sp(passage)), passage).toBe(due);
  });

  it('walks a holiday followed by a weekend: Friday 25 December 2026 -> Monday 28', () => {
    expect(freeFlowDueDay(sp('2026-11-25T09:00:00'))).toBe('2026-12-28');
    // Friday 1 January 2027 -> Monday 4 January.
    expect(freeFlowDueDay(sp('2026-12-02T09:00:00'))).toBe('2027-01-04');
  });

  it('20 November is a national holiday from 2024 on only (Lei 14.759 of 21 December 2023)', () => {
    expect(isBusinessDay('2023-11-20')).toBe(true);
    expect(isBusinessDay('2024-11-20')).toBe(false);
    expect(freeFlowDueDay(sp('2023-10-21T12:00:00'))).toBe('2023-11-20');
  });

  it('Carnival and Corpus Christi are ponto facultativo, not holidays: they are business days', () => {
    expect(isBusinessDay('2026-02-16')).toBe(true); // Carnival Monday
    expect(isBusinessDay('2026-02-17')).toBe(true); // Carnival Tuesday
    expect(isBusinessDay('2026-02-18')).toBe(true); // Ash Wednesday
    expect(isBusinessDay('2026-06-04')).toBe(true); // Corpus Christi
    expect(isBusinessDay('2026-12-24')).toBe(true);
    expect(isBusinessDay('2026-12-31')).toBe(true);
    expect(isBusinessDay('2026-12-26')).toBe(false); // Saturday
  });

  it('counts from the São Paulo day: 23:30 in São Paulo is 02:30 UTC of the next day', () => {
    const late = new Date('2025-05-15T02:30:00Z');
    expect(late.getTime()).toBe(sp('2025-05-14T23:30:00').getTime());
    // 14 May + 30 = Friday 13 June; counted from the UTC day (15 May) it would be Monday 16 June.
    expect(freeFlowDueDay(late)).toBe('2025-06-13');
    expect(freeFlowDueDay(new Date('2025-05-15T03:00:00Z'))).toBe('2025-06-16');
  });

  it('refuses an invalid instant and an invalid day', () => {
    expect(() => freeFlowDueDay(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => isBusinessDay('2026-02-30')).toThrow(RangeError);
  });

  it('reads a business day as the reference does, every day of 2024 to 2032', () => {
    for (let day = '2024-01-01'; day <= '2032-12-31'; day = plusDays(day, 1)) {
      if (isBusinessDay(day) !== referenceIsBusinessDay(day)) expect.fail(`${day}: ${isBusinessDay(day)}`);
    }
  });

  it('agrees with the reference for any instant; the due day is the first business day from passage + 30', () => {
    const first = sp('2024-01-01T00:00:00').getTime();
    // The last passages whose due day stays inside the reference table.
    const last = sp('2032-11-15T00:00:00').getTime();
    fc.assert(
      fc.property(fc.integer({ min: first, max: last }), (ms) => {
        const instant = new Date(ms);
        const due = freeFlowDueDay(instant);
        const earliest = plusDays(saoPauloCalendar.format(instant), 30);
        expect(due).toBe(referenceDueDay(instant));
        expect(isBusinessDay(due)).toBe(true);
        expect(due >= earliest).toBe(true);
        for (let day = earliest; day < due; day = plusDays(day, 1)) expect(isBusinessDay(day)).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it('is not in what index.ts exports (the web app bundles index.ts, never date-holidays), and loads on its own', () => {
    // Imported first (see the imports), it must not enter the package's import cycle
    // (statement -> vpos -> serverMessages -> pix-automatic) at the end that leaves a message undefined.
    expect(domain.serverMessages.pixAutomatic).toBe(domain.pixAutomaticMessages);
    expect('freeFlowDueDay' in domain).toBe(false);
    expect('isBusinessDay' in domain).toBe(false);
  });
});

describe('free-flow days left, state and reminders', () => {
  it('counts calendar days from today in São Paulo: 0 on the due day, negative once past', () => {
    expect(daysLeft('2026-03-10', sp('2026-03-05T12:00:00'))).toBe(5);
    expect(daysLeft('2026-03-10', sp('2026-03-09T23:59:59'))).toBe(1);
    expect(daysLeft('2026-03-10', new Date('2026-03-10T02:59:59Z'))).toBe(1); // still the 9th in São Paulo
    expect(daysLeft('2026-03-10', new Date('2026-03-10T03:00:00Z'))).toBe(0);
    expect(daysLeft('2026-03-10', sp('2026-03-10T23:59:59'))).toBe(0);
    expect(daysLeft('2026-03-10', new Date('2026-03-11T03:00:00Z'))).toBe(-1);
    expect(daysLeft('2027-01-04', sp('2026-12-25T12:00:00'))).toBe(10);
  });

  it('is cancelled, paid, overdue from the day after the due day in São Paulo, else open', () => {
    const due = '2026-03-10';
    const open = { paidAt: null, cancelledAt: null, dueDay: due };
    expect(freeFlowState(open, sp('2026-03-10T23:59:59'))).toBe('EM_ABERTO');
    expect(freeFlowState(open, new Date('2026-03-11T02:59:59Z'))).toBe('EM_ABERTO');
    expect(freeFlowState(open, new Date('2026-03-11T03:00:00Z'))).toBe('VENCIDO');
    const paidAt = sp('2026-03-20T10:00:00');
    expect(freeFlowState({ ...open, paidAt }, sp('2026-03-21T10:00:00'))).toBe('PAGO');
    expect(freeFlowState({ ...open, paidAt, cancelledAt: paidAt }, sp('2026-03-21T10:00:00'))).toBe('CANCELADO');
    expect(freeFlowState({ ...open, cancelledAt: paidAt }, sp('2026-03-01T10:00:00'))).toBe('CANCELADO');
    // As stored: ISO texts.
    expect(freeFlowState({ ...open, paidAt: paidAt.toISOString() }, sp('2026-03-21T10:00:00'))).toBe('PAGO');
    expect(freeFlowStateLabels).toEqual({
      EM_ABERTO: 'Em aberto',
      PAGO: 'Pago',
      VENCIDO: 'Vencido',
      CANCELADO: 'Cancelado pela concessionária',
    });
  });

  it('sends each reminder once, 5 days before, 1 day before, then overdue; a missed day still gets its reminder', () => {
    const due = '2026-03-20';
    const at = (day: string) => sp(`${day}T09:00:00`);
    expect(FREE_FLOW_NOTICE_DAYS).toEqual([5, 1]);
    expect(deadlineNoticeStage(due, at('2026-03-14'))).toBeNull();
    expect(deadlineNoticeStage(due, at('2026-03-15'))).toBe('five');
    expect(deadlineNoticeStage(due, at('2026-03-15'), ['five'])).toBeNull();
    expect(deadlineNoticeStage(due, at('2026-03-17'), ['five'])).toBeNull();
    // The job did not run on the 15th: the 5-day reminder goes on the 17th, once.
    expect(deadlineNoticeStage(due, at('2026-03-17'))).toBe('five');
    expect(deadlineNoticeStage(due, at('2026-03-18'))).toBe('five');
    expect(deadlineNoticeStage(due, at('2026-03-19'), ['five'])).toBe('one');
    expect(deadlineNoticeStage(due, at('2026-03-20'), ['five'])).toBe('one');
    expect(deadlineNoticeStage(due, at('2026-03-20'), ['five', 'one'])).toBeNull();
    // A toll that arrives with a day left skips the 5-day reminder.
    expect(deadlineNoticeStage(due, at('2026-03-19'))).toBe('one');
    expect(deadlineNoticeStage(due, at('2026-03-21'), ['five', 'one'])).toBe('overdue');
    expect(deadlineNoticeStage(due, at('2026-04-30'), ['one'])).toBe('overdue');
    expect(deadlineNoticeStage(due, at('2026-03-22'), ['five', 'one', 'overdue'])).toBeNull();
  });

  it('turns at São Paulo midnight, not UTC midnight', () => {
    const due = '2026-03-20';
    expect(deadlineNoticeStage(due, new Date('2026-03-15T02:59:59Z'))).toBeNull(); // 14th, 23:59 in São Paulo
    expect(deadlineNoticeStage(due, new Date('2026-03-15T03:00:00Z'))).toBe('five');
    expect(deadlineNoticeStage(due, new Date('2026-03-21T02:59:59Z'), ['five'])).toBe('one');
    expect(deadlineNoticeStage(due, new Date('2026-03-21T03:00:00Z'), ['five', 'one'])).toBe('overdue');
  });
});

describe('free-flow texts', () => {
  const value = 'R$\u00a012,34';

  it('the pushes say what the driver must do, with the plate, the gantry, the value and the days really left', () => {
    const toll = {
      kind: 'freeFlowToll',
      tollId: 9,
      plate: 'RIO2A18',
      gantry: 'Pórtico P3',
      amountCents: 1_234,
      dueDay: '2026-03-05',
    } as const;
    expect(notificationMessage({ ...toll, event: 'new' })).toEqual({
      titulo: 'Pedágio sem cancela',
      corpo: `RIO2A18 passou em Pórtico P3: ${value} a pagar até 05/03/2026. Pague pelo portal antes do vencimento.`,
      url: '/livre-passagem',
      tag: 'livre-passagem-9',
    });
    // An automatic payment says where its money came from.
    expect(notificationMessage({ ...toll, event: 'paid', payer: 'SALDO' }).corpo).toBe(
      `${value} de RIO2A18 em Pórtico P3 pagos com o seu saldo de pedágio.`,
    );
    expect(notificationMessage({ ...toll, event: 'paid', payer: 'VPO' }).corpo).toBe(
      `${value} de RIO2A18 em Pórtico P3 pagos pelo VPO da viagem.`,
    );
    // A reminder says the days left when it was sent: 5 on time, fewer when the toll came late.
    expect(notificationMessage({ ...toll, event: 'five', daysLeft: 5 }).titulo).toBe('Pedágio sem cancela vence em 5 dias');
    expect(notificationMessage({ ...toll, event: 'five', daysLeft: 3 }).titulo).toBe('Pedágio sem cancela vence em 3 dias');
    expect(notificationMessage({ ...toll, event: 'one', daysLeft: 1 }).titulo).toBe('Pedágio sem cancela vence amanhã');
    expect(notificationMessage({ ...toll, event: 'one', daysLeft: 0 }).titulo).toBe('Pedágio sem cancela vence hoje');
    expect(notificationMessage({ ...toll, event: 'one', daysLeft: 0 }).corpo).toBe(
      `RIO2A18 em Pórtico P3: ${value} vencem em 05/03/2026. Pague pelo portal para não virar multa.`,
    );
    expect(notificationMessage({ ...toll, event: 'overdue' }).titulo).toBe('Prazo vencido: risco de multa por evasão (CTB art. 209-A)');
    expect(freeFlowInsufficientText(1_234, '2026-03-05')).toBe(
      `Saldo insuficiente para pagar o pedágio sem cancela de ${value}: adicione crédito até 05/03`,
    );
  });

  it('keeps the texts fixed by the decision word for word', () => {
    expect(freeFlowMessages.overdue).toBe('Prazo vencido: risco de multa por evasão (CTB art. 209-A)');
    expect(freeFlowMessages.tagWasActive).toBe('Sua tag estava ativa: esta cobrança pode ser indevida');
    expect(Object.fromEntries(TOLL_CONTEST_REASONS.map((reason) => [reason, contestReasonLabels[reason]]))).toEqual({
      TAG_PAGOU: 'A tag pagou esta passagem',
      NAO_PASSOU_PORTICO: 'Não passei neste pórtico',
      PLACA_ERRADA: 'Placa lida errada',
    });
    expect(freeFlowMessages.optInLabel).toBe('Pedágio sem cancela');
    expect(freeFlowMessages.pay).toBe('Pagar');
    expect(freeFlowMessages.autoPay).toBe('Pagar automaticamente');
    for (const words of ['placa, pórtico, rodovia e km, data e hora, valor e vencimento', 'Saldo', 'Pagar automaticamente', 'apagados']) {
      expect(freeFlowMessages.consent).toContain(words);
    }
  });
});

describe('a toll as the concessionaire sends it', () => {
  const now = sp('2026-03-10T12:00:00');
  const valid: FreeFlowTollInput = {
    placa: 'ABC1D23',
    portico: 'P3 Arujá',
    rodovia: 'BR-116',
    km: 214.5,
    sentido: 'Rio de Janeiro',
    eixos: 6,
    valor: 18.9,
    occurredAt: '2026-03-09T23:30:00-03:00',
    vencimento: '2026-04-08',
  };
  const errors = (change: Partial<Record<keyof FreeFlowTollInput, unknown>>) =>
    freeFlowFieldErrors({ ...valid, ...change } as FreeFlowTollInput, now);
  const m = freeFlowMessages;

  it('keeps a valid toll, old or Mercosul plate, with or without its due day', () => {
    expect(errors({})).toEqual({});
    expect(errors({ placa: 'abc-1234' })).toEqual({});
    expect(errors({ vencimento: undefined })).toEqual({});
    expect(errors({ km: 0 })).toEqual({});
    expect(errors({ km: 1.005 })).toEqual({});
    // The due day is the passage's own São Paulo day at the earliest (the 9th here, 02:30 UTC of the 10th).
    expect(errors({ vencimento: '2026-03-09' })).toEqual({});
  });

  it('names each field it refuses', () => {
    expect(errors({ placa: '' })).toEqual({ placa: m.plateRequired });
    expect(errors({ placa: 'AB12345' })).toEqual({ placa: m.plateInvalid });
    expect(errors({ portico: '  ' })).toEqual({ portico: m.gantryRequired });
    expect(errors({ rodovia: '' })).toEqual({ rodovia: m.highwayRequired });
    expect(errors({ sentido: '' })).toEqual({ sentido: m.directionRequired });
    for (const km of [-1, 1.0005, Number.NaN, Number.POSITIVE_INFINITY, 10_000.001, '12'])
      expect(errors({ km }), String(km)).toEqual({ km: m.kmInvalid });
    for (const eixos of [1, 10, 2.5, Number.NaN]) expect(errors({ eixos }), String(eixos)).toEqual({ eixos: m.axlesInvalid });
    for (const valor of [0, -1, 1.005, Number.NaN, 1e-9]) expect(errors({ valor }), String(valor)).toEqual({ valor: m.valueInvalid });
    expect(errors({ occurredAt: '2026-03-09 23:30' })).toEqual({ occurredAt: m.occurredAtInvalid });
    expect(errors({ vencimento: '2026-02-30' })).toEqual({ vencimento: m.dueDayInvalid });
    expect(errors({ vencimento: '08/04/2026' })).toEqual({ vencimento: m.dueDayInvalid });
    expect(errors({ vencimento: '2026-03-08' })).toEqual({ vencimento: m.dueDayBeforePassage });
  });
});
