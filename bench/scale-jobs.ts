import { billingPeriod, previousBillingPeriod, TAG_STATUS } from '@portal/domain';
import { sql } from 'kysely';
import { openDb } from '../apps/server/src/db/connection.js';
import { createLogger } from '../apps/server/src/logger.js';
import { createServices } from '../apps/server/src/services.js';
import type { LoadWindow, MixedLoad } from './load.js';
import { scaleConfig } from './scale-app.js';
import { startOfMonthMs } from './scale-fill-people.js';
import { FULL_TAGS } from './scale-shape.js';

const DAY = 86_400_000;

/** Job bounds at the full year (issue 38: each finishes in a bounded time); the figures are checked against them. */
export const JOB_BOUNDS_SECONDS = { billing: 3600, notices: 60, retention: 300 } as const;
export type JobName = keyof typeof JOB_BOUNDS_SECONDS;

export interface JobRun {
  job: JobName;
  label: string;
  seconds: number;
  /** What it did (the service's report). */
  did: string;
  /** The full year's time: the billing's per tag times 1,500,000 tags, the others' linear in the fraction. */
  fullYearSeconds: number;
  /** The mixed load while it ran, and its p99 against the window before the jobs. */
  load: LoadWindow | null;
  p99Ratio: number | null;
}

/**
 * The three scheduled jobs at one size, one after the other, each while the mixed load runs (its
 * p99 then, against a window of load alone before them): the monthly billing over every tag, the
 * free-flow deadline notices, the retention job. They run in this process through the server's own
 * services on the data's clock, whenever the cache was built: the billing at the first hour of the
 * month after the year's end (its tags are paid through that month: every one is charged), the
 * others a day after it (a day's notices and deletions); on `databaseUrl`, which they write into.
 * With `billingTags` (fewer than the active tags), the billing charges that many tags spread over
 * the ids, the others marked paid for the month first, and gives back last month's VPO-only fees of
 * those tags alone: its time per tag is what it would take per tag over all of them.
 */
export async function runJobs(
  databaseUrl: string,
  options: { anchor: string; fraction: number; load: MixedLoad | null; baselineSeconds: number; billingTags: number | null },
) {
  const { anchor, fraction, load, baselineSeconds, billingTags } = options;
  const anchorMs = new Date(anchor).getTime();
  const clock = new Date(anchorMs + DAY);
  const billingClock = new Date(startOfMonthMs(startOfMonthMs(anchorMs) + 32 * DAY) + 10 * 60_000);
  const config = scaleConfig(databaseUrl);
  const db = openDb(config.databaseUrl);
  const services = createServices(config, db, createLogger('silent'), { now: () => clock });
  try {
    const sampled = billingTags === null ? null : await sampleBilling(databaseUrl, billingPeriod(billingClock), billingTags);
    const baseline = load ? await load.drive(baselineSeconds) : null;
    let billed = 0;
    const jobs: [JobName, string, () => Promise<string>][] = [
      [
        'billing',
        sampled === null ? 'monthly billing, every active tag' : `monthly billing, ${sampled.toLocaleString('en')} tags of the active ones`,
        async () => {
          const r = await services.billing.run(billingClock);
          billed = r.charged + r.blocked + r.skipped;
          return `${r.charged.toLocaleString('en')} charged, ${r.blocked} blocked, ${r.waived} waived, ${r.skipped} skipped (${r.period})`;
        },
      ],
      [
        'notices',
        'free-flow deadline notices',
        async () => `${(await services.freeFlow.sendDeadlineNotices()).toLocaleString('en')} notices`,
      ],
      [
        'retention',
        'retention job',
        async () => {
          const r = await services.retention.run(clock);
          return `${r.accessRecords.toLocaleString('en')} access records, ${r.sessions.toLocaleString('en')} sessions, ${r.idempotencyKeys} keys, ${r.pushOutbox.toLocaleString('en')} push notices deleted`;
        },
      ],
    ];
    const runs: JobRun[] = [];
    for (const [job, label, work] of jobs) {
      const t0 = performance.now();
      const running = work();
      const window = load ? await load.drive(Number.POSITIVE_INFINITY, running) : null;
      const did = await running;
      const seconds = (performance.now() - t0) / 1000;
      runs.push({
        job,
        label,
        seconds,
        did,
        fullYearSeconds: job === 'billing' ? (seconds / Math.max(1, billed)) * FULL_TAGS : seconds / fraction,
        load: window,
        p99Ratio: window && baseline && baseline.p99Ms > 0 ? window.p99Ms / baseline.p99Ms : null,
      });
    }
    return { clock: `billing ${billingClock.toISOString()}, the others ${clock.toISOString()}`, baseline, runs };
  } finally {
    await db.kysely.destroy();
  }
}

/**
 * Every active tag but `count` of them (spread over the ids) marked paid for `period`: the billing
 * then charges those `count` only. The billing also gives back the month before's fee of every tag
 * that used it through VPOs alone (decision 53), one transaction a tag, whatever it charges: the
 * other tags' months are made to show a passage outside a VPO, so that only the sample's are given
 * back, or the whole year's would be counted against the sample's tags. Answers how many it will
 * charge (null: all of them, when fewer).
 */
async function sampleBilling(databaseUrl: string, period: string, count: number): Promise<number | null> {
  const db = openDb(databaseUrl, { poolMax: 1 });
  try {
    const { rows } = await sql<{
      n: string;
    }>`select count(*) as n from tags where status_code = ${TAG_STATUS.active} and deleted_at is null`.execute(db.kysely);
    const active = Number(rows[0]?.n ?? 0);
    if (active <= count) return null;
    const every = Math.ceil(active / count);
    await sql`update tags set paid_through = ${period} where id % ${every} <> 0 and status_code = ${TAG_STATUS.active}
      and deleted_at is null`.execute(db.kysely);
    await sql`update tag_month_usage set other_passages = 1 where period = ${previousBillingPeriod(period)}
      and vpo_passages > 0 and other_passages = 0 and tag_id % ${every} <> 0`.execute(db.kysely);
    return Math.ceil(active / every);
  } finally {
    await db.kysely.destroy();
  }
}
