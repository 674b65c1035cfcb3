import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Decision 85: an operator's contest list says how many pages it has. Counted from the contests
 * themselves, that count read every contest of the operator, a year's worth: 3.5 times slower at
 * 0.69 of a national year than at 1/50. contest_counts keeps how many contests each operator has in
 * each state, kept by the database itself in the statement that adds, answers or removes a contest
 * (triggers: every writer, the bench's fill too, and no path that forgets), and filled here from
 * the contests already there. A page bounded by days still counts its days' contests.
 */
export function contestCounts(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('contest_counts')
        .addColumn('operator_cnpj', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('contests', 'bigint', (c) => c.notNull().check(sql`contests >= 0`))
        .addPrimaryKeyConstraint('contest_counts_pk', ['operator_cnpj', 'state'])
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();
      await sql`insert into contest_counts (operator_cnpj, state, contests)
        select operator_cnpj, state, count(*) from contests group by operator_cnpj, state`.execute(db);
      await (dialect === 'postgres' ? countOnPostgres(db) : countOnSqlite(db));
    },
    async down(db: Kysely<unknown>) {
      const onTable = dialect === 'postgres' ? sql` on contests` : sql``;
      for (const op of ['insert', 'update', 'delete'])
        await sql`drop trigger ${sql.raw(`contests_counted_on_${op}`)}${onTable}`.execute(db);
      if (dialect === 'postgres') await sql`drop function count_contests()`.execute(db);
      await db.schema.dropTable('contest_counts').execute();
    },
  };
}

/**
 * One statement-level trigger per kind of change, over the statement's rows (transition tables):
 * a bulk insert counts once, and an update that moves no contest between operators or states
 * touches no counter. What a statement takes away is subtracted, what it adds upserted (a check
 * refuses a counter below zero, and PostgreSQL checks an upsert's proposed row before its conflict),
 * each in (operator, state) order, so that two transactions answering one operator's contests wait
 * for each other instead of deadlocking.
 */
async function countOnPostgres(db: Kysely<unknown>): Promise<void> {
  const net = (rows: string) =>
    `select operator_cnpj, state, sum(delta) as n from (${rows}) changed group by operator_cnpj, state having sum(delta) <> 0`;
  const change = (rows: string) =>
    sql.raw(`
      update contest_counts c set contests = c.contests + d.n
        from (${net(rows)} order by operator_cnpj, state) d
        where d.n < 0 and c.operator_cnpj = d.operator_cnpj and c.state = d.state;
      insert into contest_counts (operator_cnpj, state, contests)
        select operator_cnpj, state, n from (${net(rows)}) d where n > 0 order by operator_cnpj, state
      on conflict (operator_cnpj, state) do update set contests = contest_counts.contests + excluded.contests;`);
  const added = 'select operator_cnpj, state, 1 as delta from added';
  const removed = 'select operator_cnpj, state, -1 as delta from removed';
  await sql`create function count_contests() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then ${change(added)}
      elsif tg_op = 'UPDATE' then ${change(`${added} union all ${removed}`)}
      else ${change(removed)}
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger contests_counted_on_insert after insert on contests
    referencing new table as added for each statement execute function count_contests()`.execute(db);
  await sql`create trigger contests_counted_on_update after update on contests
    referencing old table as removed new table as added for each statement execute function count_contests()`.execute(db);
  await sql`create trigger contests_counted_on_delete after delete on contests
    referencing old table as removed for each statement execute function count_contests()`.execute(db);
}

async function countOnSqlite(db: Kysely<unknown>): Promise<void> {
  const add = (row: 'new') =>
    `insert into contest_counts (operator_cnpj, state, contests) values (${row}.operator_cnpj, ${row}.state, 1)
       on conflict (operator_cnpj, state) do update set contests = contests + 1;`;
  const remove = `update contest_counts set contests = contests - 1 where operator_cnpj = old.operator_cnpj and state = old.state;`;
  await sql.raw(`create trigger contests_counted_on_insert after insert on contests begin ${add('new')} end`).execute(db);
  await sql
    .raw(
      `create trigger contests_counted_on_update after update of operator_cnpj, state on contests
        when old.operator_cnpj is not new.operator_cnpj or old.state is not new.state begin ${remove} ${add('new')} end`,
    )
    .execute(db);
  await sql.raw(`create trigger contests_counted_on_delete after delete on contests begin ${remove} end`).execute(db);
}
