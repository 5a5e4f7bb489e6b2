import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type ConversionRow = Database['conversions'];

export function createConversionRepo(db: Db) {
  return {
    /**
     * Records a conversion (once: its id is derived) and, in the same transaction, marks the page
     * complete for the lead and moves the lead on when `moveTo` is given. The move only happens from
     * the page completed, so a retried call never skips a page.
     */
    async record(input: {
      conversion: ConversionRow;
      completePageId: string | null;
      moveTo: string | null;
    }): Promise<void> {
      const { conversion, completePageId, moveTo } = input;
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('conversions')
          .values(conversion)
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        if (completePageId !== null) {
          await trx
            .insertInto('leadPageProgress')
            .values({
              leadId: conversion.leadId,
              pageId: completePageId,
              completedAt: conversion.createdAt,
              lastVideoPosition: null,
              lastVideoAt: null,
              updatedAt: conversion.createdAt,
            })
            .onConflict((oc) =>
              oc.columns(['leadId', 'pageId']).doUpdateSet((eb) => ({
                completedAt: eb.fn.coalesce('leadPageProgress.completedAt', eb.ref('excluded.completedAt')),
                updatedAt: eb.ref('excluded.updatedAt'),
              })),
            )
            .execute();
        }
        if (completePageId !== null && moveTo !== null) {
          await trx
            .updateTable('leads')
            .set({ currentPageId: moveTo })
            .where('id', '=', conversion.leadId)
            .where((eb) => eb.or([eb('currentPageId', '=', completePageId), eb('currentPageId', 'is', null)]))
            .execute();
        }
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
