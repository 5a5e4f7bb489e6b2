import type { FollowUpQuery } from '@embudo/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newLead, useVisitorServer } from '../../../test/visitor';
import { createFollowUpsQuery, type FollowUpPage } from './follow-ups.query';

/**
 * The follow-up list as it reads the leads' state rows a chunk at a time: for any states, any chunk
 * size and any page size, paging through the list gives exactly the rows a plain filter and sort of
 * the states gives, each once, furthest first.
 */
describe.each(TEST_DIALECTS)('the follow-up list on %s', (dialect) => {
  const h = useVisitorServer(dialect);

  it('pages through exactly the filtered, sorted rows, whatever the chunk and page sizes', async () => {
    const db = h.server.database.db;
    const [first, second] = h.vsl.pages;
    if (!first || !second) throw new Error('the demo VSL funnel has pages');
    const pages: FollowUpPage[] = [
      { id: first.id, position: 0, buttonTimeSeconds: 10 },
      { id: second.id, position: 1, buttonTimeSeconds: 0 },
    ];
    // Both videos are 40 s long.
    await db
      .insertInto('analyticsPageMeta')
      .values(pages.map((page) => ({ pageId: page.id, maxDuration: 40, maxPlayedSecond: 39 })))
      .execute();
    const account = await h.server.services.accounts.findBySlug(h.demo.accountSlug);
    const accountId = account?.id ?? '';
    const leads: string[] = [];
    for (let i = 0; i < 9; i++) leads.push((await newLead(h, h.vsl.id, `Follow ${String(i)}`)).id);

    const state = fc.record({
      played: fc.array(fc.tuple(fc.integer({ min: 0, max: 39 }), fc.integer({ min: 1, max: 8 })), {
        maxLength: 3,
      }),
      converted: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(state, { nil: undefined }), { minLength: 18, maxLength: 18 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom<FollowUpQuery['filter']>('all', 'pastButtonNotConverted'),
        async (states, scanChunk, limit, filter) => {
          await db.deleteFrom('analyticsLeadPages').execute();
          await db.deleteFrom('conversions').where('leadId', 'in', leads).execute();
          // A lead converted on any page is converted for the whole funnel (a VIDEO_VIEWED is not).
          const converted = new Set(
            states.flatMap((s, index) => (s?.converted ? [leads[index % leads.length] ?? ''] : [])),
          );
          const conversionRows = [...converted].map((leadId, n) => ({
            id: `follow-${leadId}`,
            accountId,
            funnelId: h.vsl.id,
            leadId,
            pageId: n % 2 === 0 ? null : second.id,
            kind: n % 2 === 0 ? 'OFFERT' : 'PRELAUNCH',
            details: '{}',
            createdAt: 1,
          }));
          const progressOnly = leads.filter((leadId) => !converted.has(leadId)).slice(0, 2);
          for (const leadId of progressOnly) {
            conversionRows.push({
              id: `viewed-${leadId}`,
              accountId,
              funnelId: h.vsl.id,
              leadId,
              pageId: first.id,
              kind: 'VIDEO_VIEWED',
              details: '{}',
              createdAt: 1,
            });
          }
          if (conversionRows.length > 0) await db.insertInto('conversions').values(conversionRows).execute();
          const expected: [string, string, number][] = [];
          const rows = states.flatMap((s, index) => {
            if (s === undefined) return [];
            const leadId = leads[index % leads.length] ?? '';
            const page = pages[index < leads.length ? 0 : 1] as FollowUpPage;
            const runs = [...s.played]
              .map(([from, length]) => [from, Math.min(40, from + length)] as const)
              .sort((a, b) => a[0] - b[0]);
            const merged: [number, number][] = [];
            for (const [from, to] of runs) {
              const lastRun = merged.at(-1);
              if (lastRun && from <= lastRun[1]) lastRun[1] = Math.max(lastRun[1], to);
              else merged.push([from, to]);
            }
            const furthest = merged.length === 0 ? -1 : (merged.at(-1)?.[1] ?? 0) - 1;
            const pastButton = merged.some(
              ([from, to]) => from <= page.buttonTimeSeconds && page.buttonTimeSeconds < to,
            );
            if (furthest >= 0 && (filter === 'all' || (pastButton && !converted.has(leadId)))) {
              expected.push([leadId, page.id, furthest]);
            }
            return [
              {
                leadId,
                pageId: page.id,
                state: JSON.stringify({
                  leadId,
                  pageId: page.id,
                  leadFunnelId: h.vsl.id,
                  entryDay: 0,
                  playedByDay: merged.length === 0 ? [] : [{ day: 20_000, played: merged }],
                  firstPlayDay: merged.length === 0 ? null : 20_000,
                  furthestSecond: furthest,
                  clickDays: [],
                  reached: true,
                  completed: false,
                  clicked: false,
                  converted: false,
                }),
              },
            ];
          });
          if (rows.length > 0) await db.insertInto('analyticsLeadPages').values(rows).execute();
          expected.sort(
            (a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0) || (a[1] < b[1] ? -1 : 1),
          );

          const query = createFollowUpsQuery(db, { scanChunk });
          const seen: [string, string, number][] = [];
          let cursor: string | undefined;
          for (let turn = 0; turn < 40; turn++) {
            const answer = await query(h.vsl.id, pages, { filter, limit, ...(cursor ? { cursor } : {}) });
            if (answer === 'bad cursor') throw new Error('the list refused its own cursor');
            expect(answer.items.length).toBeLessThanOrEqual(limit);
            seen.push(
              ...answer.items.map(
                (item) => [item.lead.id, item.pageId, item.furthestSecond] as [string, string, number],
              ),
            );
            if (answer.nextCursor === null) break;
            cursor = answer.nextCursor;
          }
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
