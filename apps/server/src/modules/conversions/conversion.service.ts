import { VisitorMessage, type SuccessAnswer, type TokenRequest, type TrackAck } from '@embudo/contracts';
import { isIP } from 'node:net';
import type { PageRepo } from '../pages/page.repo';
import { eventId } from '../tracking/event-ids';
import type { LeadContext, LeadContextReader } from '../tracking/lead-context';
import { ack, type RequestContext } from '../tracking/tracking.service';
import type { ConversionRepo } from './conversion.repo';

export type ConversionKind = 'VIDEO_VIEWED' | 'OFFERT' | 'PRELAUNCH';

/** Where a visitor is, for social proof ("Ana, from Monterrey"). */
export type Locate = (ip: string) => Promise<{ city: string | null; countryCode: string | null }>;

export interface ConversionServiceDeps {
  conversions: ConversionRepo;
  leads: LeadContextReader;
  pages: PageRepo;
  locate?: Locate;
  now?: () => number;
}

const OK = ack(200, VisitorMessage.ok);
const UNKNOWN_TOKEN = ack(404, VisitorMessage.unknownToken);

/** Video viewed, the offer event and the prelaunch conversion (spec §7), and lead progress (DESIGN §5.3). */
export function createConversionService({
  conversions,
  leads,
  pages,
  locate,
  now = Date.now,
}: ConversionServiceDeps) {
  async function record(
    lead: LeadContext & { page: NonNullable<LeadContext['page']> },
    kind: ConversionKind,
    key: string,
    context: RequestContext,
    progress: { complete: boolean; moveTo: string | null },
  ): Promise<void> {
    const at = now();
    const where = locate ? await locate(context.ip).catch(() => null) : null;
    await conversions.record({
      conversion: {
        id: eventId(lead.leadId, kind, key),
        accountId: lead.accountId,
        funnelId: lead.funnelId,
        leadId: lead.leadId,
        pageId: lead.page.id,
        kind,
        details: JSON.stringify({ city: where?.city ?? null, countryCode: where?.countryCode ?? null }),
        createdAt: at,
      },
      completePageId: progress.complete ? lead.page.id : null,
      moveTo: progress.moveTo,
    });
  }

  async function leadOnPage(token: string) {
    const lead = await leads.byToken(token);
    return lead?.page ? { ...lead, page: lead.page } : null;
  }

  return {
    /**
     * PUT /funnel/site/complete: the lead watched the page's video. The page is complete; on a
     * NEXT-PAGE page the lead moves to the next page, so the reload shows it (DESIGN §5.3).
     */
    async videoViewed(input: TokenRequest, context: RequestContext): Promise<TrackAck> {
      const lead = await leadOnPage(input.token);
      if (!lead) return UNKNOWN_TOKEN;
      if (input.idPage !== undefined && input.idPage !== lead.page.id) {
        // A retried call after the lead already moved on: done already, and nothing to repeat.
        return { codeResponse: 200, result: true, message: VisitorMessage.staleProgress };
      }
      let moveTo: string | null = null;
      if (lead.page.buttonAction === 'NEXT-PAGE') {
        const list = await pages.listByFunnel(lead.funnelId);
        moveTo = list.find((p) => p.position > lead.page.position)?.id ?? null;
      }
      await record(lead, 'VIDEO_VIEWED', lead.page.id, context, { complete: true, moveTo });
      return OK;
    },

    /** POST /funnel/track/event/offert: the offer button was used; an OFFERT page is then complete. */
    async offerEvent(input: TokenRequest, context: RequestContext): Promise<TrackAck> {
      const lead = await leadOnPage(input.token);
      if (!lead) return UNKNOWN_TOKEN;
      await record(lead, 'OFFERT', lead.page.id, context, {
        complete: lead.page.buttonAction === 'OFFERT',
        moveTo: null,
      });
      return OK;
    },

    /** POST /lead/internal/conversion/prelaunch: once per lead and funnel. */
    async prelaunch(input: TokenRequest, context: RequestContext): Promise<TrackAck> {
      const lead = await leadOnPage(input.token);
      if (!lead) return UNKNOWN_TOKEN;
      await record(lead, 'PRELAUNCH', lead.funnelId, context, { complete: false, moveTo: null });
      return OK;
    },

    /** POST /funnel/lead/ip: the address the browser reports for itself. */
    async leadIp(input: { token: string; ip: string }): Promise<SuccessAnswer> {
      if (isIP(input.ip) === 0) return { success: false, message: 'INVALID_IP' };
      const lead = await leads.identify(input.token);
      if (!lead) return { success: false, message: VisitorMessage.unknownToken };
      await conversions.setLeadIp(lead.leadId, input.ip, now());
      return { success: true };
    },
  };
}
export type ConversionService = ReturnType<typeof createConversionService>;
