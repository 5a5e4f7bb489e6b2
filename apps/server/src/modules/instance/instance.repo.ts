import type { Db } from '../../db';
import { newToken } from '../../lib/tokens';

/**
 * The instance secret: made once per database and shared by every server process on it. It keys the
 * tokens that must come out the same each time (the demo's links).
 */
export async function instanceSecret(db: Db): Promise<string> {
  const existing = await db
    .selectFrom('instanceSettings')
    .select('value')
    .where('key', '=', 'secret')
    .executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('instanceSettings')
    .values({ key: 'secret', value: newToken() + newToken() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('instanceSettings')
    .select('value')
    .where('key', '=', 'secret')
    .executeTakeFirstOrThrow();
  return row.value;
}
