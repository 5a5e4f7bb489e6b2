import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type ConversionRow = Database['conversions'];

export function createConversionRepo(db: Db) {
  return {
    /**
     * Records a conversion (once: its id is derived) and, in the same transaction, the writes that
     * come with it (`also`: the page's completion, from lead progress) and, when it was new, those
     * that count it (`counted`: the analytics rollups).
     */
    async record(
      conversion: ConversionRow,
      also?: (trx: Db) => Promise<void>,
      counted?: (trx: Db) => Promise<void>,
      /** Taken before anything is written, where `counted` needs a lock first (several processes). */
      first?: (trx: Db) => Promise<void>,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (first) await first(trx);
        const inserted = await trx
          .insertInto('conversions')
          .values(conversion)
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirst();
        if (also) await also(trx);
        if (counted && Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) await counted(trx);
      });
    },

    /** The funnel's stored settings (JSON), where `isPreLaunch` lives. */
    funnelSettings: async (funnelId: string): Promise<string | undefined> =>
      (await db.selectFrom('funnels').select('settings').where('id', '=', funnelId).executeTakeFirst())
        ?.settings,

    async setLeadIp(leadId: string, ip: string, at: number): Promise<void> {
      await db.updateTable('leads').set({ lastIp: ip, lastIpAt: at }).where('id', '=', leadId).execute();
    },

    /** A funnel's latest conversions with the lead's name, for social proof. */
    recentForFunnel: (funnelId: string, kinds: readonly string[], limit: number) =>
      db
        .selectFrom('conversions')
        .innerJoin('leads', 'leads.id', 'conversions.leadId')
        .select([
          'conversions.kind',
          'conversions.details',
          'conversions.createdAt',
          'leads.id as leadId',
          'leads.name',
        ])
        .where('conversions.funnelId', '=', funnelId)
        .where('conversions.kind', 'in', kinds)
        .orderBy('conversions.createdAt', 'desc')
        .limit(limit)
        .execute(),
  };
}
export type ConversionRepo = ReturnType<typeof createConversionRepo>;
