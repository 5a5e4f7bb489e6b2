import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * A number for every transaction that changes the analytics rollups on PostgreSQL, taken under their
 * advisory lock (rollup-lock.ts): a process whose next batch gets the number after its last one's
 * knows that no other process changed a state row in between, and may plan from the state rows it
 * keeps in memory (decision 31). SQLite has one writing process and needs none.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`create sequence analytics_writes`.execute(db);
}
