import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS, databaseMigratedTo } from '../../../test/databases';
import { searchPrefixes } from '../../lib/search-terms';
import { createLeadRepo } from '../../modules/leads/lead.repo';
import { migrate, type DatabaseHandle } from '../index';

/**
 * Leads stored before issue 18 had no search terms: migration 0009 writes them, so that a search finds
 * every lead, old or new; API keys made before it keep no characters of their own (null prefix).
 */

/** More leads than the migration reads at a time (500). */
const LEADS = 1203;

describe.each(TEST_DIALECTS)('leads and keys stored before issue 18, migrated on %s', (dialect) => {
  let handle: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  const funnelId = '01900000-0000-7000-8000-00000000f001';
  const leadId = (i: number) => `01900000-0000-7000-8000-${i.toString().padStart(12, '0')}`;

  beforeAll(async () => {
    ({ handle, drop } = await databaseMigratedTo(dialect, '0007-pixel-events-of-leads'));
    const db = handle.db;
    await sql`insert into accounts (id, slug, name, subscription_status, settings, created_at)
      values ('acc', 'old', 'Old', 'active', '{}', 1)`.execute(db);
    await sql`insert into api_keys (id, account_id, key_hash, label, created_at, last_used_at)
      values ('key', 'acc', 'hash', 'default', 1, null)`.execute(db);
    await sql`insert into funnels (id, account_id, name, type_funnel, language, settings, pixel, created_at, updated_at)
      values (${funnelId}, 'acc', 'Old', 'VSL', 'es', '{}', '{}', 1, 1)`.execute(db);
    for (let i = 0; i < LEADS; i += 100) {
      const values = Array.from({ length: Math.min(100, LEADS - i) }, (_, j) => {
        const n = i + j;
        const name = n === 7 ? 'José Núñez' : `Lead ${n}`;
        const email = n === 7 ? 'jose@correo.mx' : null;
        const phone = n === 7 ? '+52 55 1234 5678' : null;
        return sql`(${leadId(n)}, 'acc', ${funnelId}, ${`token-${n}`}, ${name}, ${email}, ${phone}, null, null, null, ${1000 + n})`;
      });
      await sql`insert into leads (id, account_id, funnel_id, token_hash, name, email, phone, current_page_id,
        deadline_at, deadline_exception_on, created_at) values ${sql.join(values)}`.execute(db);
    }
    await migrate(handle);
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });

  const found = async (search: string) =>
    (
      await createLeadRepo(handle?.db ?? expect.unreachable('no database')).listByFunnel({
        funnelId,
        limit: 5000,
        order: 'oldest',
        prefixes: searchPrefixes(search),
      })
    ).map((lead) => lead.name);

  it('finds every lead stored before, by its name, e-mail or phone', async () => {
    expect(await found('nunez')).toEqual(['José Núñez']);
    expect(await found('jose@')).toEqual(['José Núñez']);
    expect(await found('+52 55')).toEqual(['José Núñez']);
    expect(await found('lead')).toHaveLength(LEADS - 1);
    expect(await found('lead 1202')).toEqual(['Lead 1202']);
  });

  it("counts each funnel's leads stored before, and goes on counting", async () => {
    const db = handle?.db ?? expect.unreachable('no database');
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('funnelLeadCounts')
            .select('leadCount')
            .where('funnelId', '=', funnelId)
            .executeTakeFirst()
        )?.leadCount,
      );
    expect(await count()).toBe(LEADS);
    await db.deleteFrom('leads').where('id', '=', leadId(0)).execute();
    expect(await count()).toBe(LEADS - 1);
  });

  it('shows a key made before as having no characters of its own', async () => {
    const db = handle?.db ?? expect.unreachable('no database');
    const key = await db.selectFrom('apiKeys').select(['label', 'prefix']).executeTakeFirst();
    expect(key).toEqual({ label: 'default', prefix: null });
  });
});
