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
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
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
    const any = (name: string, on: string, events: string, when = '') =>
      sql
        .raw(
          `create trigger ${name} after ${events} on ${on} ` +
            (when === ''
              ? 'for each statement execute function embudo_visitor_context_any()'
              : `for each row when (${when}) execute function embudo_visitor_context_any()`),
        )
        .execute(db);
    const lead = (name: string, on: string, events: string, when: string, column: string) =>
      sql
        .raw(
          `create trigger ${name} after ${events} on ${on} for each row when (${when}) ` +
            `execute function embudo_visitor_context_lead('${column}')`,
        )
        .execute(db);
    await any('accounts_visitor_context', 'accounts', 'update of subscription_status or delete');
    await any('pages_visitor_context_rows', 'pages', 'insert or delete');
    await any(
      'pages_visitor_context_changed',
      'pages',
      'update of button_action, position, funnel_id',
      'old.button_action is distinct from new.button_action or old.position is distinct from new.position ' +
        'or old.funnel_id is distinct from new.funnel_id',
    );
    await any('leads_visitor_context_deleted', 'leads', 'delete');
    await lead(
      'leads_visitor_context_changed',
      'leads',
      'update of token_hash, funnel_id, account_id, name, current_page_id',
      'old.token_hash is distinct from new.token_hash or old.funnel_id is distinct from new.funnel_id ' +
        'or old.account_id is distinct from new.account_id or old.name is distinct from new.name ' +
        'or old.current_page_id is distinct from new.current_page_id',
      'id',
    );
    await lead(
      'progress_visitor_context_completed',
      'lead_page_progress',
      'insert',
      'new.completed_at is not null',
      'lead_id',
    );
    await lead(
      'progress_visitor_context_changed',
      'lead_page_progress',
      'update of completed_at',
      'old.completed_at is distinct from new.completed_at',
      'lead_id',
    );
    await any('progress_visitor_context_deleted', 'lead_page_progress', 'delete');
    await any('sessions_visitor_context_deleted', 'page_sessions', 'delete');
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
  await trigger(
    'accounts_visitor_context_changed',
    'accounts',
    'update of subscription_status',
    'old.subscription_status is not new.subscription_status',
    'null',
  );
  await trigger('accounts_visitor_context_deleted', 'accounts', 'delete', '', 'null');
  await trigger('pages_visitor_context_added', 'pages', 'insert', '', 'null');
  await trigger('pages_visitor_context_deleted', 'pages', 'delete', '', 'null');
  await trigger(
    'pages_visitor_context_changed',
    'pages',
    'update of button_action, position, funnel_id',
    'old.button_action is not new.button_action or old.position is not new.position ' +
      'or old.funnel_id is not new.funnel_id',
    'null',
  );
  await trigger('leads_visitor_context_deleted', 'leads', 'delete', '', 'old.id');
  await trigger(
    'leads_visitor_context_changed',
    'leads',
    'update of token_hash, funnel_id, account_id, name, current_page_id',
    'old.token_hash is not new.token_hash or old.funnel_id is not new.funnel_id ' +
      'or old.account_id is not new.account_id or old.name is not new.name ' +
      'or old.current_page_id is not new.current_page_id',
    'new.id',
  );
  await trigger(
    'progress_visitor_context_completed',
    'lead_page_progress',
    'insert',
    'new.completed_at is not null',
    'new.lead_id',
  );
  await trigger(
    'progress_visitor_context_changed',
    'lead_page_progress',
    'update of completed_at',
    'old.completed_at is not new.completed_at',
    'new.lead_id',
  );
  await trigger('progress_visitor_context_deleted', 'lead_page_progress', 'delete', '', 'old.lead_id');
  await trigger('sessions_visitor_context_deleted', 'page_sessions', 'delete', '', 'old.lead_id');
}
