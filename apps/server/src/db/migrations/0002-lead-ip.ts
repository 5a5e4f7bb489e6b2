import type { Kysely } from 'kysely';

/** The lead's last known address (visitor-behaviour §7 "Lead IP"), kept on the lead. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('leads').addColumn('last_ip', 'text').execute();
  await db.schema.alterTable('leads').addColumn('last_ip_at', 'bigint').execute();
}
