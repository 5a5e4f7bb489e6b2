import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Every change to what a visitor call's checks read (decision 42): an account's status, a page's
 * action or place, a lead's token, funnel, name or current page, a page completed, and the deletion of
 * any of them or of a page session. Triggers record them whatever writes them (the Studio, the CLI,
 * another process), so that what a process keeps of them in memory (db/visitor-context.ts) is never
 * used after a change it has not heard of.
 *
 * - PostgreSQL: `pg_notify` on the channel `embudo_visitor_context`, sent at commit, with the schema
 *   and the lead's id, or `*` for a change that may touch any lead. A lead's own changes are one
 *   notification per row; the rest once per statement.
 * - SQLite: a row in `visitor_context_changes` (the lead's id, or null for any), which the one server
 *   process reads once per round of requests and then deletes.
 */
/** The columns whose change a kept read can see, per table; the same on both databases. */
const WATCHED = {
  accounts: ['subscription_status'],
  pages: ['button_action', 'position', 'funnel_id'],
  leads: ['token_hash', 'funnel_id', 'account_id', 'name', 'current_page_id'],
  progress: ['completed_at'],
} as const;

/** `update of` those columns, and the row condition that one of them really changed. */
function updateOf(columns: readonly string[], differs: 'is distinct from' | 'is not') {
  return {
    events: `update of ${columns.join(', ')}`,
    when: columns.map((column) => `old.${column} ${differs} new.${column}`).join(' or '),
  };
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    const changed = (columns: readonly string[]) => updateOf(columns, 'is distinct from');
    await sql`create function embudo_visitor_context_any() returns trigger language plpgsql as $$
      begin
        perform pg_notify('embudo_visitor_context', tg_table_schema || ' *');
        return null;
      end $$`.execute(db);
    // The lead's id from the new row's column named by the trigger's argument.
    await sql`create function embudo_visitor_context_lead() returns trigger language plpgsql as $$
      begin
        perform pg_notify('embudo_visitor_context',
          tg_table_schema || ' ' || (to_jsonb(new) ->> tg_argv[0]));
        return null;
      end $$`.execute(db);
    const notifyAny = (name: string, on: string, events: string, when = '') =>
      sql
        .raw(
          `create trigger ${name} after ${events} on ${on} ` +
            (when === ''
              ? 'for each statement execute function embudo_visitor_context_any()'
              : `for each row when (${when}) execute function embudo_visitor_context_any()`),
        )
        .execute(db);
    const notifyLead = (name: string, on: string, events: string, when: string, column: string) =>
      sql
        .raw(
          `create trigger ${name} after ${events} on ${on} for each row when (${when}) ` +
            `execute function embudo_visitor_context_lead('${column}')`,
        )
        .execute(db);
    await notifyAny('accounts_visitor_context', 'accounts', `${changed(WATCHED.accounts).events} or delete`);
    await notifyAny('pages_visitor_context_rows', 'pages', 'insert or delete');
    const page = changed(WATCHED.pages);
    await notifyAny('pages_visitor_context_changed', 'pages', page.events, page.when);
    await notifyAny('leads_visitor_context_deleted', 'leads', 'delete');
    const leadUpdate = changed(WATCHED.leads);
    await notifyLead('leads_visitor_context_changed', 'leads', leadUpdate.events, leadUpdate.when, 'id');
    await notifyLead(
      'progress_visitor_context_completed',
      'lead_page_progress',
      'insert',
      'new.completed_at is not null',
      'lead_id',
    );
    const completion = changed(WATCHED.progress);
    await notifyLead(
      'progress_visitor_context_changed',
      'lead_page_progress',
      completion.events,
      completion.when,
      'lead_id',
    );
    await notifyAny('progress_visitor_context_deleted', 'lead_page_progress', 'delete');
    await notifyAny('sessions_visitor_context_deleted', 'page_sessions', 'delete');
    return;
  }
  await sql`create table visitor_context_changes (
    seq integer primary key autoincrement,
    lead_id text
  )`.execute(db);
  const trigger = (name: string, on: string, events: string, when: string, leadId: string) =>
    sql
      .raw(
        `create trigger ${name} after ${events} on ${on} for each row ` +
          (when === '' ? '' : `when ${when} `) +
          `begin insert into visitor_context_changes (lead_id) values (${leadId}); end`,
      )
      .execute(db);
  const changed = (columns: readonly string[]) => updateOf(columns, 'is not');
  const account = changed(WATCHED.accounts);
  await trigger('accounts_visitor_context_changed', 'accounts', account.events, account.when, 'null');
  await trigger('accounts_visitor_context_deleted', 'accounts', 'delete', '', 'null');
  await trigger('pages_visitor_context_added', 'pages', 'insert', '', 'null');
  await trigger('pages_visitor_context_deleted', 'pages', 'delete', '', 'null');
  const page = changed(WATCHED.pages);
  await trigger('pages_visitor_context_changed', 'pages', page.events, page.when, 'null');
  await trigger('leads_visitor_context_deleted', 'leads', 'delete', '', 'old.id');
  const leadUpdate = changed(WATCHED.leads);
  await trigger('leads_visitor_context_changed', 'leads', leadUpdate.events, leadUpdate.when, 'new.id');
  await trigger(
    'progress_visitor_context_completed',
    'lead_page_progress',
    'insert',
    'new.completed_at is not null',
    'new.lead_id',
  );
  const completion = changed(WATCHED.progress);
  await trigger(
    'progress_visitor_context_changed',
    'lead_page_progress',
    completion.events,
    completion.when,
    'new.lead_id',
  );
  await trigger('progress_visitor_context_deleted', 'lead_page_progress', 'delete', '', 'old.lead_id');
  await trigger('sessions_visitor_context_deleted', 'page_sessions', 'delete', '', 'old.lead_id');
}
