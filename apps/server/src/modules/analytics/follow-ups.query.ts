import type { FollowUp, FollowUpList, FollowUpQuery } from '@embudo/contracts';
import { z } from 'zod';
import type { Db } from '../../db';
import { dayText } from '../../lib/zone-days';
import { SHOWN_COLUMNS } from '../leads/lead.repo';
import { toLead } from '../leads/lead.service';
import { COUNTED_CONVERSION_KINDS } from './counted-conversions';
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

/** State rows read at a time. */
const SCAN_CHUNK = 2000;

/** A lead's row of the list from its state on the page, or undefined before any play. */
function candidateOf(
  state: string,
  page: FollowUpPage,
  duration: number,
  converted: ReadonlySet<string>,
): Candidate | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(state);
  } catch {
    return undefined;
  }
  const read = LeadPageFields.safeParse(parsed);
  if (!read.success || read.data.furthestSecond < 0) return undefined;
  const played = read.data.playedByDay.reduce<IntervalSet>((all, day) => union(all, day.played), []);
  return {
    leadId: read.data.leadId,
    page,
    furthestSecond: read.data.furthestSecond,
    secondsPlayed: size(played),
    pastButton: contains(played, Math.floor(page.buttonTimeSeconds)),
    converted: converted.has(read.data.leadId),
    lastPlayedDay: read.data.playedByDay.at(-1)?.day ?? 0,
    reachedShare: duration > 0 ? Math.min(1, (read.data.furthestSecond + 1) / duration) : null,
  };
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
 * the rollups' state rows (a chunk at a time, page by page), filtered and sorted furthest first, and
 * its leads read for the page asked. A cursor continues after its row's sort key, so a row gone since
 * (a lead erased) changes nothing.
 */
export function createFollowUpsQuery(db: Db, { scanChunk = SCAN_CHUNK }: { scanChunk?: number } = {}) {
  return async function followUps(
    funnelId: string,
    pages: readonly FollowUpPage[],
    query: FollowUpQuery,
  ): Promise<FollowUpList | 'bad cursor'> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (after === null) return 'bad cursor';
    if (pages.length === 0) return { items: [], nextCursor: null };
    const metas = await db
      .selectFrom('analyticsPageMeta')
      .selectAll()
      .where(
        'pageId',
        'in',
        pages.map((page) => page.id),
      )
      .execute();
    const durations = new Map(
      metas.map((meta) => [
        meta.pageId,
        videoDurationOf(pageMetaRow(meta.pageId, meta.maxDuration, meta.maxPlayedSecond)),
      ]),
    );
    const isAfterCursor = (row: Candidate): boolean => {
      if (after === undefined) return true;
      const [key, leadId, pageId] = after;
      return (
        sortKey(row) < key ||
        (sortKey(row) === key && (row.leadId > leadId || (row.leadId === leadId && row.page.id > pageId)))
      );
    };

    // Leads with a conversion analytics counts, anywhere in the funnel: a lead who bought on the offer
    // page is no follow-up on the pages before it.
    const convertedOf = async (leadIds: readonly string[]): Promise<Set<string>> => {
      if (leadIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('conversions')
        .select('leadId')
        .distinct()
        .where('funnelId', '=', funnelId)
        .where('leadId', 'in', [...leadIds])
        .where('kind', 'in', [...COUNTED_CONVERSION_KINDS])
        .execute();
      return new Set(rows.map((row) => row.leadId));
    };

    // The best `limit + 1` rows after the cursor, kept while the state rows are read a chunk at a
    // time: memory stays bounded by the page asked for, whatever the number of leads.
    const keep = query.limit + 1;
    let best: Candidate[] = [];
    const consider = (candidate: Candidate) => {
      best.push(candidate);
      if (best.length >= keep * 2) best = best.sort(compare).slice(0, keep);
    };
    for (const page of pages) {
      const duration = durations.get(page.id) ?? 0;
      let afterLead = '';
      for (;;) {
        const chunk = await db
          .selectFrom('analyticsLeadPages')
          .select(['leadId', 'state'])
          .where('pageId', '=', page.id)
          .where('leadId', '>', afterLead)
          .orderBy('leadId')
          .limit(scanChunk)
          .execute();
        const converted = await convertedOf(chunk.map((row) => row.leadId));
        for (const { state } of chunk) {
          const candidate = candidateOf(state, page, duration, converted);
          if (candidate === undefined || !isAfterCursor(candidate)) continue;
          if (query.filter === 'pastButtonNotConverted' && (!candidate.pastButton || candidate.converted))
            continue;
          consider(candidate);
        }
        const last = chunk.at(-1);
        if (last === undefined || chunk.length < scanChunk) break;
        afterLead = last.leadId;
      }
    }
    best.sort(compare);
    const slice = best.slice(0, query.limit);
    const leads =
      slice.length === 0
        ? []
        : await db
            .selectFrom('leads')
            .select(SHOWN_COLUMNS)
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
    return { items, nextCursor: best.length > query.limit && last ? encodeCursor(last) : null };
  };
}
export type FollowUpsQuery = ReturnType<typeof createFollowUpsQuery>;
