import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS, databaseMigratedTo } from '../../../test/databases';
import { createAccountRepo } from '../../modules/accounts/account.repo';
import { createAccountService } from '../../modules/accounts/account.service';
import { createAnalyticsRepo } from '../../modules/analytics/analytics.repo';
import { createAnalyticsService } from '../../modules/analytics/analytics.service';
import { createDatabaseRollups } from '../../modules/analytics/database-rollups';
import { zoneDay } from '../../lib/zone-days';
import { migrate, type DatabaseHandle } from '../index';

/**
 * Leads, sessions and video records stored before issue 19 count in the analytics: migration 0010
 * marks the rollups as to be rebuilt, and the first start rebuilds them (once).
 */
describe.each(TEST_DIALECTS)('data stored before the analytics rollups, migrated on %s', (dialect) => {
  let handle: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  const at = Date.UTC(2026, 10, 20, 15);

  beforeAll(async () => {
    ({ handle, drop } = await databaseMigratedTo(dialect, '0009-lead-search'));
    const db = handle.db;
    await sql`insert into accounts (id, slug, name, subscription_status, settings, created_at)
      values ('acc', 'old', 'Old', 'active', '{"timeZone":"America/Bogota"}', 1)`.execute(db);
    await sql`insert into funnels (id, account_id, name, type_funnel, language, settings, pixel, created_at, updated_at)
      values ('fun', 'acc', 'Old', 'VSL', 'es', '{}', '{}', 1, 1)`.execute(db);
    await sql`insert into pages (id, funnel_id, position, layout, button_action, content, created_at, updated_at)
      values ('pag', 'fun', 0, 'VSL', 'OFFERT', '{}', 1, 1)`.execute(db);
    for (const lead of ['l1', 'l2']) {
      await sql`insert into leads (id, account_id, funnel_id, token_hash, name, created_at)
        values (${lead}, 'acc', 'fun', ${`hash-${lead}`}, ${lead}, ${at})`.execute(db);
      await sql`insert into page_sessions (id, lead_id, funnel_id, page_id, start_at, start_reason, end_inferred, details, last_seen_at)
        values (${`s-${lead}`}, ${lead}, 'fun', 'pag', ${at}, 'INITIAL_LOAD', 0, '{}', ${at})`.execute(db);
    }
    // l1 plays 0–30 s, l2 plays 0–10 s.
    for (const [lead, end] of [
      ['l1', 30],
      ['l2', 10],
    ] as const) {
      await sql`insert into video_records (id, page_session_id, lead_id, start_view_time, end_view_time, start_time_video, end_time_video, details, received_at)
        values (${`v-${lead}`}, ${`s-${lead}`}, ${lead}, ${at}, ${at + end * 1000}, 0, ${end}, '{"state":"PAUSE","videoDuration":60}', ${at})`.execute(
        db,
      );
    }
    await migrate(handle);
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });

  it('rebuilds once at start, in the account time zone, then no more', async () => {
    if (!handle) throw new Error('no database');
    const { db } = handle;
    const analytics = createAnalyticsRepo(dialect);
    const rollups = createDatabaseRollups({ db, analytics });
    const service = createAnalyticsService({
      db,
      analytics,
      rollups,
      accounts: createAccountService({ accounts: createAccountRepo(db) }),
    });
    const day = zoneDay('America/Bogota', at);
    const page = { id: 'pag', funnelId: 'fun', position: 0, buttonTimeSeconds: 20 };
    expect((await rollups.pageNumbers(page, { from: day, to: day })).sessions).toBe(0);
    expect(await service.rebuildIfPending()).toBe(true);
    const numbers = await rollups.pageNumbers(page, { from: day, to: day });
    expect(numbers).toMatchObject({
      sessions: 2,
      plays: 2,
      uniqueViewers: 2,
      pastButton: 1,
      videoDuration: 60,
    });
    expect(numbers.retention.reach.slice(8, 12)).toEqual([2, 2, 1, 1]);
    expect((await rollups.funnelNumbers('fun', [page], { from: day, to: day })).byDay[0]?.entered).toBe(2);
    expect(await service.rebuildIfPending()).toBe(false);
  });
});
