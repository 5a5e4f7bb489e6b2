import type { LeadTimeline } from '@embudo/contracts';
import { z } from 'zod';
import type { Db } from '../../db';
import { toIso } from '../../lib/json';
import { applySession, applyVideoRecord } from './rollup-core';
import type { LeadPageState, LeadState, SessionState } from './rollup-rows';
import { videoRecordDetails } from './video-record-details';

/** The newest sessions a timeline shows: a lead with more has the rest left out (`truncated`). */
export const TIMELINE_SESSIONS = 200;

const DeviceDetails = z.object({
  os: z.object({ name: z.string().optional() }).optional().catch(undefined),
  browser: z.object({ name: z.string().optional() }).optional().catch(undefined),
});

/** "Android · Chrome" from a session's stored details; null when they name neither. */
export function deviceInBrief(details: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    return null;
  }
  const read = DeviceDetails.safeParse(parsed);
  if (!read.success) return null;
  const parts = [read.data.os?.name, read.data.browser?.name].filter(
    (part): part is string => typeof part === 'string' && part.trim() !== '',
  );
  return parts.length === 0 ? null : parts.join(' · ');
}

type TimelineSession = LeadTimeline['sessions'][number];
type PixelState = TimelineSession['conversions'][number]['pixel'];

/**
 * The lead's timeline (decision 25): its newest page sessions, each with its passes as the rollups
 * define them (computed here from the raw records, so the timeline holds even while rollups are
 * rebuilt), its actions, and its conversions, a pixel lead with the delivery of the Meta event its call
 * queued. A conversion goes with the latest session of its page that started before it (or the lead's
 * first).
 */
export function createLeadTimelineQuery(db: Db) {
  return async function leadTimeline(lead: { id: string; funnelId: string }): Promise<LeadTimeline> {
    const sessions = await db
      .selectFrom('pageSessions')
      .select(['id', 'pageId', 'funnelId', 'startAt', 'startReason', 'endAt', 'endReason', 'details'])
      .where('leadId', '=', lead.id)
      .orderBy('startAt', 'desc')
      .orderBy('id', 'desc')
      .limit(TIMELINE_SESSIONS)
      .execute();
    const ids = sessions.map((session) => session.id);
    const [records, actions, conversions, pixelEvents] = await Promise.all([
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('videoRecords')
            .select([
              'id',
              'pageSessionId',
              'startViewTime',
              'endViewTime',
              'startTimeVideo',
              'endTimeVideo',
              'details',
              'receivedAt',
            ])
            .where('leadId', '=', lead.id)
            .where('pageSessionId', 'in', ids)
            .orderBy('receivedAt')
            .orderBy('id')
            .execute(),
      db
        .selectFrom('actions')
        .select(['pageSessionId', 'action', 'receivedAt'])
        .where('leadId', '=', lead.id)
        .orderBy('receivedAt')
        .execute(),
      db
        .selectFrom('conversions')
        .select(['id', 'pageId', 'kind', 'createdAt'])
        .where('leadId', '=', lead.id)
        .orderBy('createdAt')
        .execute(),
      db
        .selectFrom('pixelOutbox')
        .select(['eventName', 'createdAt', 'deliveredAt', 'droppedAt'])
        .where('leadId', '=', lead.id)
        .orderBy('createdAt')
        .execute(),
    ]);

    // Passes exactly as the rollups make them: the session, then its records as they were stored.
    const leadState: LeadState = { leadId: lead.id, funnelId: lead.funnelId, entryDay: 0 };
    const states = new Map<string, { session: SessionState; leadPage: LeadPageState }>();
    for (const session of sessions) {
      const { session: state, leadPage } = applySession(
        { lead: leadState, leadPage: undefined, session: undefined },
        { ...session, leadId: lead.id, endReason: null },
        () => 0,
      );
      states.set(session.id, { session: state, leadPage });
    }
    for (const record of records) {
      const state = states.get(record.pageSessionId);
      if (state === undefined) continue;
      const { session, leadPage } = applyVideoRecord(state, {
        ...record,
        leadId: lead.id,
        ...videoRecordDetails(record.details),
      });
      states.set(record.pageSessionId, { session, leadPage });
    }

    const shown = new Map<string, TimelineSession>();
    for (const session of sessions) {
      shown.set(session.id, {
        id: session.id,
        pageId: session.pageId,
        startAt: toIso(session.startAt),
        startReason: session.startReason,
        endAt: session.endAt === null ? null : toIso(session.endAt),
        endReason: session.endReason,
        device: deviceInBrief(session.details),
        passes: (states.get(session.id)?.session.passes ?? []).map((pass) => ({
          played: pass.played.map(([from, to]) => ({ from, to })),
        })),
        actions: [],
        conversions: [],
      });
    }
    for (const action of actions) {
      if (action.pageSessionId === null) continue;
      shown.get(action.pageSessionId)?.actions.push({ action: action.action, at: toIso(action.receivedAt) });
    }
    // Oldest first, to find the session each later event belongs to.
    const ascending = [...sessions].reverse();
    const sessionAt = (at: number, pageId: string | null): TimelineSession | undefined => {
      const before = ascending.filter((session) => session.startAt <= at);
      const samePage = before.filter((session) => pageId === null || session.pageId === pageId);
      const chosen = samePage.at(-1) ?? before.at(-1) ?? ascending[0];
      return chosen && shown.get(chosen.id);
    };
    // A PIXEL_LEAD conversion was told to Meta by the pixel event its call queued (none without a pixel).
    const pixelOf = (at: number): PixelState | null => {
      const event = pixelEvents.find((e) => e.eventName === 'Lead' && e.createdAt >= at);
      if (event === undefined) return null;
      return event.deliveredAt !== null ? 'sent' : event.droppedAt !== null ? 'failed' : 'pending';
    };
    for (const conversion of conversions) {
      sessionAt(conversion.createdAt, conversion.pageId)?.conversions.push({
        id: conversion.id,
        pageId: conversion.pageId,
        kind: conversion.kind,
        at: toIso(conversion.createdAt),
        pixel: conversion.kind === 'PIXEL_LEAD' ? pixelOf(conversion.createdAt) : null,
      });
    }
    return { leadId: lead.id, sessions: sessions.flatMap((session) => shown.get(session.id) ?? []) };
  };
}
export type LeadTimelineQuery = ReturnType<typeof createLeadTimelineQuery>;
