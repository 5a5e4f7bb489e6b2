import type { Dialect } from '../../db/dialect';
import { reusableQuery } from '../../db/reusable-query';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type DomainRow = Database['domains'];

/** What a check leaves on the row. */
export type DomainCheckRecord = Pick<DomainRow, 'state' | 'failure' | 'checkedAt' | 'failingSince'>;

export function createDomainRepo(db: Db, dialect: Dialect) {
  const byHost = reusableQuery(db, ['host'], ({ host }) =>
    db.selectFrom('domains').selectAll().where('host', '=', host),
  );
  /**
   * A domain serves while verified, or while failing since after `since` (the grace period's start:
   * decision 27). A pending domain never serves.
   */
  const servingAccount = reusableQuery(db, ['host', 'since'], ({ host, since }) =>
    db
      .selectFrom('domains')
      .select('accountId')
      .where('host', '=', host)
      .where((eb) =>
        eb.or([
          eb('state', '=', 'verified'),
          eb.and([eb('state', '=', 'failing'), eb('failingSince', '>', since)]),
        ]),
      ),
  );
  const activeServing = reusableQuery(db, ['host', 'since'], ({ host, since }) =>
    db
      .selectFrom('domains')
      .innerJoin('accounts', 'accounts.id', 'domains.accountId')
      .select('domains.id')
      .where('domains.host', '=', host)
      .where('accounts.subscriptionStatus', '=', 'active')
      .where((eb) =>
        eb.or([
          eb('domains.state', '=', 'verified'),
          eb.and([eb('domains.state', '=', 'failing'), eb('domains.failingSince', '>', since)]),
        ]),
      ),
  );
  return {
    async insert(row: DomainRow): Promise<void> {
      await db.insertInto('domains').values(row).execute();
    },
    findById: (id: string) => db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst(),
    findByHost: async (host: string) => (await byHost({ host }))[0],
    /** The account whose pages a custom host serves now, if any (`since`: the grace period's start). */
    servingAccountOf: async (host: string, since: number): Promise<string | undefined> =>
      (await servingAccount({ host, since }))[0]?.accountId,
    /** Whether the host serves now and belongs to an account that may serve pages (an active subscription). */
    async isActiveServingHost(host: string, since: number): Promise<boolean> {
      return (await activeServing({ host, since })).length > 0;
    },
    listByAccount: (accountId: string) =>
      db.selectFrom('domains').selectAll().where('accountId', '=', accountId).orderBy('host').execute(),
    async delete(id: string): Promise<void> {
      await db.deleteFrom('domains').where('id', '=', id).execute();
    },

    /**
     * Claims up to `limit` domains due for a check by moving their next check to `nextAt`, in one
     * statement: a second runner (another process) finds them no longer due. On PostgreSQL the
     * subquery skips rows another claim holds, and the outer condition is checked again on a row
     * claimed since the statement began, so a domain is claimed once. A runner that dies mid-check
     * leaves the domain due again at `nextAt`.
     */
    async claimDue(now: number, nextAt: number, limit: number): Promise<DomainRow[]> {
      if (limit <= 0) return [];
      return db
        .updateTable('domains')
        .set({ nextCheckAt: nextAt })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('domains')
            .select('id')
            .where('nextCheckAt', '<=', now)
            .orderBy('nextCheckAt')
            .limit(limit)
            .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked()),
        )
        .where('nextCheckAt', '<=', now)
        .returningAll()
        .execute();
    },

    /** What a check found; the next periodic check at `nextAt`. */
    async recordCheck(id: string, check: DomainCheckRecord, nextAt: number): Promise<void> {
      await db
        .updateTable('domains')
        .set({ ...check, nextCheckAt: nextAt })
        .where('id', '=', id)
        .execute();
    },
  };
}
export type DomainRepo = ReturnType<typeof createDomainRepo>;
