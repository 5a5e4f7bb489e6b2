import type { FollowUp, FollowUpList, FollowUpQuery } from '@embudo/contracts';
import { z } from 'zod';
import type { Db } from '../../db';
import { dayText } from '../../lib/zone-days';
import { toLead } from '../leads/lead.service';
import { contains, size, union, type IntervalSet } from './interval-set';
import { videoDurationOf } from './rollup-answers';
import { pageMetaRow } from './rollup-rows';

/** A page of the funnel as the list reads it. */
export interface FollowUpPage {
  id: string;
  position: number;
  buttonTimeSeconds: number;
}

/** The fields of a lead's state on a page (`analytics_lead_pages`, decision 25) that the list reads. */
const LeadPageFields = z.object({
  leadId: z.string(),
  pageId: z.string(),
  playedByDay: z.array(
    z.object({ day: z.number().int(), played: z.array(z.tuple([z.number(), z.number()]).readonly()) }),
  ),
  furthestSecond: z.number().int(),
  converted: z.boolean(),
});

interface Candidate {
  leadId: string;
  page: FollowUpPage;
  furthestSecond: number;
  secondsPlayed: number;
  pastButton: boolean;
  converted: boolean;
  lastPlayedDay: number;
  reachedShare: number | null;
}

/** Where a page of the list ends: the sort key of its last row, opaque to the caller. */
const Cursor = z.tuple([z.number(), z.string(), z.string()]);

function encodeCursor(row: Candidate): string {
  return Buffer.from(JSON.stringify([sortKey(row), row.leadId, row.page.id])).toString('base64url');
}

function decodeCursor(cursor: string): z.infer<typeof Cursor> | null {
  try {
    const read = Cursor.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return read.success ? read.data : null;
  } catch {
    return null;
  }
}

/** Furthest first: the share of the video reached, or the second itself when the length is unknown. */
const sortKey = (row: Candidate): number => row.reachedShare ?? row.furthestSecond / 1e9;

function compare(a: Candidate, b: Candidate): number {
  return (
    sortKey(b) - sortKey(a) ||
    (a.leadId < b.leadId ? -1 : a.leadId > b.leadId ? 1 : 0) ||
    (a.page.id < b.page.id ? -1 : a.page.id > b.page.id ? 1 : 0)
  );
}

/**
 * The follow-up list of a funnel (issue 19): each lead's state on each page with a play, read from
 * the rollups' state rows, filtered and sorted furthest first, and its leads read for the page asked.
 * A cursor that names no row of today's list (a lead erased since) continues after its sort key.
 */
export function createFollowUpsQuery(db: Db) {
  return async function followUps(
    funnelId: string,
    pages: readonly FollowUpPage[],
    query: FollowUpQuery,
  ): Promise<FollowUpList | 'bad cursor'> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (after === null) return 'bad cursor';
    if (pages.length === 0) return { items: [], nextCursor: null };
    const byId = new Map(pages.map((page) => [page.id, page]));
    const pageIds = [...byId.keys()];
    const [states, metas] = await Promise.all([
      db.selectFrom('analyticsLeadPages').select(['state']).where('pageId', 'in', pageIds).execute(),
      db.selectFrom('analyticsPageMeta').selectAll().where('pageId', 'in', pageIds).execute(),
    ]);
    const durations = new Map(
      metas.map((meta) => [
        meta.pageId,
        videoDurationOf(pageMetaRow(meta.pageId, meta.maxDuration, meta.maxPlayedSecond)),
      ]),
    );

    const candidates: Candidate[] = [];
    for (const { state } of states) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(state);
      } catch {
        continue;
      }
      const read = LeadPageFields.safeParse(parsed);
      if (!read.success || read.data.furthestSecond < 0) continue;
      const page = byId.get(read.data.pageId);
      if (page === undefined) continue;
      const played = read.data.playedByDay.reduce<IntervalSet>((all, day) => union(all, day.played), []);
      const duration = durations.get(page.id) ?? 0;
      const candidate: Candidate = {
        leadId: read.data.leadId,
        page,
        furthestSecond: read.data.furthestSecond,
        secondsPlayed: size(played),
        pastButton: contains(played, Math.floor(page.buttonTimeSeconds)),
        converted: read.data.converted,
        lastPlayedDay: read.data.playedByDay.at(-1)?.day ?? 0,
        reachedShare: duration > 0 ? Math.min(1, (read.data.furthestSecond + 1) / duration) : null,
      };
      if (query.filter === 'pastButtonNotConverted' && (!candidate.pastButton || candidate.converted))
        continue;
      candidates.push(candidate);
    }
    candidates.sort(compare);

    const start =
      after === undefined
        ? 0
        : candidates.findIndex((row) => {
            const [key, leadId, pageId] = after;
            return (
              sortKey(row) < key ||
              (sortKey(row) === key &&
                (row.leadId > leadId || (row.leadId === leadId && row.page.id > pageId)))
            );
          });
    const slice = start < 0 ? [] : candidates.slice(start, start + query.limit);
    const leads =
      slice.length === 0
        ? []
        : await db
            .selectFrom('leads')
            .select([
              'id',
              'funnelId',
              'name',
              'email',
              'phone',
              'currentPageId',
              'deadlineAt',
              'deadlineExceptionOn',
              'createdAt',
            ])
            .where('funnelId', '=', funnelId)
            .where('id', 'in', [...new Set(slice.map((row) => row.leadId))])
            .execute();
    const leadById = new Map(leads.map((lead) => [lead.id, toLead(lead)]));
    const items: FollowUp[] = slice.flatMap((row) => {
      const lead = leadById.get(row.leadId);
      if (lead === undefined) return [];
      return [
        {
          lead,
          pageId: row.page.id,
          position: row.page.position,
          furthestSecond: row.furthestSecond,
          reachedShare: row.reachedShare,
          secondsPlayed: row.secondsPlayed,
          pastButton: row.pastButton,
          converted: row.converted,
          lastPlayedOn: dayText(row.lastPlayedDay),
        },
      ];
    });
    const last = slice.at(-1);
    const more = start >= 0 && start + query.limit < candidates.length;
    return { items, nextCursor: more && last ? encodeCursor(last) : null };
  };
}
export type FollowUpsQuery = ReturnType<typeof createFollowUpsQuery>;
