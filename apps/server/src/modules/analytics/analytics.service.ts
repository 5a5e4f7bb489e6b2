import type { Account } from '@embudo/contracts';
import type { Db } from '../../db';
import { dayOfZone } from '../../lib/zone-days';
import type { AccountService } from '../accounts/account.service';
import type { AnalyticsRepo } from './analytics.repo';
import { countsAsConversion } from './counted-conversions';
import type { DatabaseRollups } from './database-rollups';
import { createRollupLock, type RollupLock } from './rollup-lock';
import type { RawEvent } from './rollup-batch';
import type { AggregateRow } from './rollup-rows';

/** Leads whose rows a rebuild reads and replays at a time (about ten rows each at a launch's scale). */
const REBUILD_LEADS = 300;
/** Rows of a page of leads past which the next page takes half as many leads. */
const REBUILD_ROWS = 20_000;
/** Aggregate rows a rebuild keeps summed in memory before it writes them. */
const REBUILD_DELTAS = 500_000;

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
  rollups: Pick<DatabaseRollups, 'apply' | 'writeSummed' | 'holdAcrossProcesses'>;
  accounts: Pick<AccountService, 'get' | 'list'>;
  /** The lock every path that changes rollups holds: a rebuild waits for batches and holds them back. */
  lock?: RollupLock;
  /**
   * Leads a rebuild replays at a time, rows past which it takes fewer, and summed aggregate rows past
   * which it writes them before the end (tests take small ones).
   */
  rebuildPage?: { leads: number; rows: number; deltas: number };
}

export function createAnalyticsService({
  db,
  analytics,
  rollups,
  accounts,
  lock = createRollupLock(),
  rebuildPage = { leads: REBUILD_LEADS, rows: REBUILD_ROWS, deltas: REBUILD_DELTAS },
}: AnalyticsServiceDeps) {
  async function rebuildNow(accountId: string): Promise<RebuildCounts> {
    const account: Account = await accounts.get(accountId);
    const dayOf = dayOfZone(account.settings.timeZone);
    return db.transaction().execute(async (trx) => {
      // Other processes' batches wait for the whole rebuild (PostgreSQL; one process on SQLite).
      await rollups.holdAcrossProcesses(trx);
      await analytics.deleteAccount(trx, accountId);
      const counts: RebuildCounts = { leads: 0, sessions: 0, videoRecords: 0, actions: 0, conversions: 0 };
      // A page of leads at a time with all their rows, each lead before its sessions and each session
      // before its records and actions (decision 32).
      let after = '';
      let leadsPerPage = rebuildPage.leads;
      // The aggregate rows' deltas of every page, written at the end (or when too many to keep).
      const summed = new Map<string, AggregateRow>();
      for (;;) {
        const page = await analytics.raw.leads(trx, accountId, after, leadsPerPage);
        if (page.last === undefined) {
          await rollups.writeSummed(trx, summed);
          return counts;
        }
        const raw = await analytics.raw.ofLeads(
          trx,
          page.rows.map((lead) => lead.id),
        );
        const conversions = raw.conversions.filter(countsAsConversion);
        await rollups.apply(
          trx,
          [
            ...page.rows.map((row): RawEvent => ({ kind: 'lead', row })),
            ...raw.sessions.map((row): RawEvent => ({ kind: 'session', row })),
            ...raw.videoRecords.map((row): RawEvent => ({ kind: 'videoRecord', row })),
            ...raw.actions.map((row): RawEvent => ({ kind: 'action', row })),
            ...conversions.map((row): RawEvent => ({ kind: 'conversion', row })),
          ],
          () => dayOf,
          summed,
        );
        if (summed.size > rebuildPage.deltas) await rollups.writeSummed(trx, summed);
        counts.leads += page.rows.length;
        counts.sessions += raw.sessions.length;
        counts.videoRecords += raw.videoRecords.length;
        counts.actions += raw.actions.length;
        counts.conversions += conversions.length;
        after = page.last;
        // Leads with many rows make the next page smaller (down to one lead), so a batch stays near
        // `rebuildPage.rows` rows in memory; pages grow back as rows thin out.
        const rows = raw.sessions.length + raw.videoRecords.length + raw.actions.length;
        leadsPerPage =
          rows > rebuildPage.rows
            ? Math.max(1, Math.floor(leadsPerPage / 2))
            : Math.min(rebuildPage.leads, leadsPerPage * 2);
      }
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
