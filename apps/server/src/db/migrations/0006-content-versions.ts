import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * A version per funnel, bumped by the database itself whenever the funnel or one of its pages is
 * inserted, updated or deleted, by any writer: this server, another instance, the CLI. Page resolution
 * reads it with the lead and keeps the funnel's parsed content for as long as it holds (decision 0016).
 * A funnel without a row is at version 0. Deleting a funnel deletes its row; its pages, deleted with it,
 * find no funnel and bump nothing. No foreign key: a cascade must never be refused by a bump.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('content_versions')
    .addColumn('funnel_id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  if (dialect === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);
}

/** Bumps the version of the funnel `funnelId` names, if that funnel still exists. */
const bump = (funnelId: string) => `
  insert into content_versions (funnel_id, version)
  select id, 1 from funnels where id = ${funnelId}
  on conflict (funnel_id) do update set version = content_versions.version + 1;`;

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const triggers = [
    ['funnels_content_inserted', 'after insert on funnels', bump('new.id')],
    ['funnels_content_updated', 'after update on funnels', bump('new.id')],
    [
      'funnels_content_deleted',
      'after delete on funnels',
      'delete from content_versions where funnel_id = old.id;',
    ],
    ['pages_content_inserted', 'after insert on pages', bump('new.funnel_id')],
    ['pages_content_updated', 'after update on pages', `${bump('old.funnel_id')}${bump('new.funnel_id')}`],
    ['pages_content_deleted', 'after delete on pages', bump('old.funnel_id')],
  ] as const;
  for (const [name, when, body] of triggers)
    await sql.raw(`create trigger ${name} ${when} for each row begin ${body} end`).execute(db);
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `create function funnel_content_changed() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          delete from content_versions where funnel_id = old.id;
        else
          ${bump('new.id')}
        end if;
        return null;
      end $$`,
    `create function page_content_changed() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          ${bump('old.funnel_id')}
        end if;
        if tg_op <> 'DELETE' then
          ${bump('new.funnel_id')}
        end if;
        return null;
      end $$`,
    `create trigger funnels_content_changed after insert or update or delete on funnels
       for each row execute function funnel_content_changed()`,
    `create trigger pages_content_changed after insert or update or delete on pages
       for each row execute function page_content_changed()`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
