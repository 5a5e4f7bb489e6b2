import { countsAsConversion } from '../analytics/counted-conversions';
import type { RollupIngest } from '../analytics/rollup-ingest';
import {
  TrackingMessage,
  VisitorMessage,
  type SuccessAnswer,
  type TokenRequest,
  type TrackAck,
} from '@embudo/contracts';
import { isIP } from 'node:net';
import { z } from 'zod';
import { readJson } from '../../lib/json';
import { eventId } from '../../lib/event-ids';
import type { LeadContext, LeadProgressService } from '../lead-progress/lead-progress.service';
import { ack, refusal, type RequestContext } from '../tracking/tracking.service';
import type { ConversionRepo } from './conversion.repo';

/**
 * VIDEO_VIEWED marks a page complete (lead progress); OFFERT, PRELAUNCH and PIXEL_LEAD (a landing
 * page's lead sent to the chat, told by its pixel call) are what analytics counts as conversions.
 */
export type ConversionKind = 'VIDEO_VIEWED' | 'OFFERT' | 'PRELAUNCH' | 'PIXEL_LEAD';

/** Where a visitor is, for social proof ("Ana, from Monterrey"). */
export type Locate = (ip: string) => Promise<{ city: string | null; countryCode: string | null }>;

export interface ConversionServiceDeps {
  conversions: Pick<ConversionRepo, 'record' | 'funnelSettings' | 'setLeadIp'>;
  progress: Pick<LeadProgressService, 'byToken' | 'identify' | 'completion'>;
  locate?: Locate;
  /** The analytics rollups, kept in the conversion's transaction (decision 25). */
  rollups?: Pick<RollupIngest, 'lock' | 'conversionStored' | 'holdAcrossProcesses'>;
  now?: () => number;
}

const OK = ack(200, VisitorMessage.ok);
const UNKNOWN_TOKEN = ack(404, VisitorMessage.unknownToken);
const OFFER_NOT_ON_PAGE = ack(409, TrackingMessage.offerNotOnPage);
const NOT_IN_PRELAUNCH = ack(409, TrackingMessage.notInPrelaunch);

/** The one funnel setting the pre-launch conversion depends on, read from the stored settings. */
const PreLaunchSetting = z.object({ isPreLaunch: z.boolean() });

/** Video viewed, the offer event and the prelaunch conversion (visitor-behaviour §7), and lead progress (architecture §5.3). */
export function createConversionService({
  conversions,
  progress,
  locate,
  rollups,
  now = Date.now,
}: ConversionServiceDeps) {
  async function record(
    lead: LeadContext & { page: NonNullable<LeadContext['page']> },
    kind: ConversionKind,
    key: string,
    context: RequestContext,
    completesPage: boolean,
  ): Promise<void> {
    const at = now();
    const where = locate ? await locate(context.ip).catch(() => null) : null;
    const row = {
      id: eventId(lead.leadId, kind, key),
      accountId: lead.accountId,
      funnelId: lead.funnelId,
      leadId: lead.leadId,
      pageId: lead.page.id,
      kind,
      details: JSON.stringify({ city: where?.city ?? null, countryCode: where?.countryCode ?? null }),
      createdAt: at,
    };
    const also = completesPage ? await progress.completion(lead, at) : undefined;
    if (!rollups || !countsAsConversion(row)) {
      await conversions.record(row, also);
      return;
    }
    // The rollups' lock of several processes comes first, before the page's completion takes row locks
    // that another process's batch, holding that lock, may wait for.
    await rollups.lock.run(() =>
      conversions.record(
        row,
        also,
        (trx) => rollups.conversionStored(trx, row),
        (trx) => rollups.holdAcrossProcesses(trx),
      ),
    );
  }

  /** The lead and its page, or the answer that refuses the call (unknown token, inactive account). */
  async function leadOnPage(
    token: string,
  ): Promise<
    | { refused: TrackAck; lead: null }
    | { refused: null; lead: LeadContext & { page: NonNullable<LeadContext['page']> } }
  > {
    const { refused, lead } = await progress.byToken(token);
    if (refused !== null) return { refused: refusal(refused), lead: null };
    if (!lead.page) return { refused: UNKNOWN_TOKEN, lead: null };
    return { refused: null, lead: { ...lead, page: lead.page } };
  }

  return {
    /**
     * PUT /funnel/site/complete: the lead watched the page's video. The page is complete; on a
     * NEXT-PAGE page the lead moves to the next page, so the reload shows it (architecture §5.3).
     */
    async videoViewed(input: TokenRequest, context: RequestContext): Promise<TrackAck> {
      const { refused, lead } = await leadOnPage(input.token);
      if (refused) return refused;
      if (input.idPage !== undefined && input.idPage !== lead.page.id) {
        // A retried call after the lead already moved on: done already, and nothing to repeat.
        return { codeResponse: 200, result: true, message: VisitorMessage.staleProgress };
      }
      await record(lead, 'VIDEO_VIEWED', lead.page.id, context, true);
      return OK;
    },

    /**
     * POST /funnel/track/event/offert: the offer button was used; the OFFERT page is then complete.
     * Only an OFFERT page shows that button (the page sends this call when it shows,
     * use-page-actions.ts): from a lead on any other page it is refused (409), nothing stored. OFFERT
     * conversions are the purchases the "just bought" popups show.
     */
    async offerEvent(input: TokenRequest, context: RequestContext): Promise<TrackAck> {
      const { refused, lead } = await leadOnPage(input.token);
      if (refused) return refused;
      if (lead.page.buttonAction !== 'OFFERT') return OFFER_NOT_ON_PAGE;
      await record(lead, 'OFFERT', lead.page.id, context, true);
      return OK;
    },

    /**
     * POST /lead/internal/conversion/prelaunch: once per lead and funnel, and only while the funnel
     * is in pre-launch (the page sends it when its data says isPreLaunch); otherwise refused (409).
     */
    async prelaunch(input: TokenRequest, context: RequestContext): Promise<TrackAck> {
      const { refused, lead } = await leadOnPage(input.token);
      if (refused) return refused;
      const settings = await conversions.funnelSettings(lead.funnelId);
      if (settings === undefined || !readJson(PreLaunchSetting, settings).isPreLaunch)
        return NOT_IN_PRELAUNCH;
      await record(lead, 'PRELAUNCH', lead.funnelId, context, false);
      return OK;
    },

    /**
     * A pixel `Lead` call of a lead on a page (the landing's button, just before the chat opens): the
     * page's conversion, once per lead and page, whether or not the funnel has a pixel to tell Meta.
     */
    async pixelLead(token: string, context: RequestContext): Promise<void> {
      const { refused, lead } = await leadOnPage(token);
      if (refused) return;
      await record(lead, 'PIXEL_LEAD', lead.page.id, context, false);
    },

    /**
     * POST /funnel/lead/ip: the lead's last address. The one stored is the address the server sees
     * (the connection's, or the client's as a trusted proxy names it); the browser's `ip` is still
     * checked to be an address, so the answers stay as they were, and never stored: anyone can send any.
     */
    async leadIp(
      input: { token: string; ip: string },
      context: Pick<RequestContext, 'ip'>,
    ): Promise<SuccessAnswer> {
      if (isIP(input.ip) === 0 || isIP(context.ip) === 0) return { success: false, message: 'INVALID_IP' };
      const { refused, lead } = await progress.identify(input.token);
      if (refused !== null) return { success: false, message: refused };
      await conversions.setLeadIp(lead.leadId, context.ip, now());
      return { success: true };
    },
  };
}
export type ConversionService = ReturnType<typeof createConversionService>;
