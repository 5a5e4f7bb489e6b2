import type { Account } from '@embudo/contracts';
import type { Kysely } from 'kysely';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';
import { dayOfZone } from '../../lib/zone-days';
import type { AccountService } from '../accounts/account.service';
import type { AnalyticsRepo, RawPage } from './analytics.repo';
import { countsAsConversion } from './counted-conversions';
import type { DatabaseRollups } from './database-rollups';
import { createRollupLock, type RollupLock } from './rollup-lock';
import type { RawEvent } from './rollup-batch';

/** Rows read and replayed at a time by a rebuild. */
const REBUILD_PAGE = 2000;

export interface RebuildCounts {
  leads: number;
  sessions: number;
  videoRecords: number;
  actions: number;
  conversions: number;
}

export interface AnalyticsServiceDeps {
  db: Db;
  analytics: Pick<AnalyticsRepo, 'raw' | 'deleteAccount' | 'rebuildPending' | 'clearRebuildPending'>;
  rollups: Pick<DatabaseRollups, 'apply' | 'holdAcrossProcesses'>;
  accounts: Pick<AccountService, 'get' | 'list'>;
  /** The lock every path that changes rollups holds: a rebuild waits for batches and holds them back. */
  lock?: RollupLock;
}

export function createAnalyticsService({
  db,
  analytics,
  rollups,
  accounts,
  lock = createRollupLock(),
}: AnalyticsServiceDeps) {
  async function rebuildNow(accountId: string): Promise<RebuildCounts> {
    const account: Account = await accounts.get(accountId);
    const dayOf = dayOfZone(account.settings.timeZone);
    return db.transaction().execute(async (trx) => {
      // Other processes' batches wait for the whole rebuild (PostgreSQL; one process on SQLite).
      await rollups.holdAcrossProcesses(trx);
      await analytics.deleteAccount(trx, accountId);
      const replay = async <Row extends { id: string }>(
        read: (
          trx: Kysely<Database>,
          accountId: string,
          after: string,
          limit: number,
        ) => Promise<RawPage<Row>>,
        event: (row: Row) => RawEvent,
        counted: (row: Row) => boolean = () => true,
      ): Promise<number> => {
        let after = '';
        let count = 0;
        for (;;) {
          const page = await read(trx, accountId, after, REBUILD_PAGE);
          await rollups.apply(trx, page.rows.filter(counted).map(event), () => dayOf);
          count += page.rows.length;
          if (page.last === undefined || page.rows.length < REBUILD_PAGE) return count;
          after = page.last;
        }
      };
      // A lead before its sessions, a session before its records and actions.
      return {
        leads: await replay(analytics.raw.leads, (row) => ({ kind: 'lead', row })),
        sessions: await replay(analytics.raw.sessions, (row) => ({ kind: 'session', row })),
        videoRecords: await replay(analytics.raw.videoRecords, (row) => ({ kind: 'videoRecord', row })),
        actions: await replay(analytics.raw.actions, (row) => ({ kind: 'action', row })),
        conversions: await replay(
          analytics.raw.conversions,
          (row) => ({ kind: 'conversion', row }),
          countsAsConversion,
        ),
      };
    });
  }

  const service = {
    /**
     * Recomputes every rollup of the account from its raw rows (decision 25), in its time zone: in one
     * transaction, so that readers see the old numbers or the new ones, never half of them; under the
     * rollup lock, so that no batch of this process changes rollups meanwhile (a batch waits, then adds
     * to the rebuilt rows). Another process's tracking must be stopped (issue 20 locks rows instead).
     */
    async rebuild(accountId: string): Promise<RebuildCounts> {
      return lock.run(() => rebuildNow(accountId));
    },

    /** Rebuilds every account; a rebuild left pending by migration 0010 is done then. */
    async rebuildAll(): Promise<{ account: string; counts: RebuildCounts }[]> {
      const done = [];
      for (const account of await accounts.list())
        done.push({ account: account.slug, counts: await service.rebuild(account.id) });
      await analytics.clearRebuildPending(db);
      return done;
    },

    /** At start: rebuilds every account when migration 0010 found data from before (once). */
    async rebuildIfPending(): Promise<boolean> {
      if (!(await analytics.rebuildPending(db))) return false;
      await service.rebuildAll();
      return true;
    },
  };
  return service;
}
export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
