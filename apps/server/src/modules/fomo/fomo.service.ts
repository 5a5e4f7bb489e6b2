import { FUNNEL_DEFAULTS, type FomoRequest, type FomoResponse, type FomoSite } from '@embudo/contracts';
import { z } from 'zod';
import type { ConversionRepo } from '../conversions/conversion.repo';
import type { ConversionKind } from '../conversions/conversion.service';
import type { FunnelRepo } from '../funnels/funnel.repo';
import { toFunnelRecord } from '../funnels/funnel.service';
import { FOMO_TEMPLATES } from './fomo.templates';

const RECENT_CONVERSIONS = 30;
const Where = z
  .object({ city: z.string().nullable().catch(null), countryCode: z.string().nullable().catch(null) })
  .catch({ city: null, countryCode: null });

const SITE_KEY = { LPI: 'lpi', VIDEO: 'video', OFFERT: 'offert' } as const satisfies Record<FomoSite, string>;

/** Which conversions may stand behind each sentence: "just bought" only for real offer clicks. */
const KINDS_FOR: Record<FomoSite, readonly ConversionKind[]> = {
  LPI: ['VIDEO_VIEWED', 'OFFERT', 'PRELAUNCH'],
  VIDEO: ['VIDEO_VIEWED', 'OFFERT', 'PRELAUNCH'],
  OFFERT: ['OFFERT'],
};

/** "Ana María López" → "Ana": social proof shows first names only. */
function firstName(name: string): string {
  const first = name.trim().split(/\s+/)[0] ?? '';
  return first.charAt(0).toLocaleUpperCase() + first.slice(1);
}

/**
 * Social-proof popups (visitor-behaviour §4.8, architecture §5.13): from the funnel's real recent conversions, from the
 * owner's own list, or both, as the owner chose; off unless the owner turned them on for that page type.
 */
export function createFomoService({
  funnels,
  conversions,
}: {
  funnels: Pick<FunnelRepo, 'findById'>;
  conversions: Pick<ConversionRepo, 'recentForFunnel'>;
}) {
  return {
    async messages(input: FomoRequest): Promise<FomoResponse> {
      const row = await funnels.findById(input.idFunnel);
      if (!row) {
        return {
          messages: [],
          interval: FUNNEL_DEFAULTS.fomo.intervalSeconds,
          position: FUNNEL_DEFAULTS.fomo.position,
        };
      }
      const funnel = toFunnelRecord(row);
      const { fomo } = funnel;
      const answer: FomoResponse = { messages: [], interval: fomo.intervalSeconds, position: fomo.position };
      if (!funnel.isFomoOn || !fomo[SITE_KEY[input.site]].fomoApplied) return answer;

      const messageTemplate = FOMO_TEMPLATES[funnel.language][input.site];
      if (fomo.source !== 'messages') {
        const seen = new Set<string>();
        for (const c of await conversions.recentForFunnel(
          funnel.id,
          KINDS_FOR[input.site],
          RECENT_CONVERSIONS,
        )) {
          // One popup per person, however many times they converted.
          if (seen.has(c.leadId)) continue;
          seen.add(c.leadId);
          const where = Where.parse(JSON.parse(c.details));
          const name = firstName(c.name);
          if (name === '') continue;
          const countryCode =
            where.countryCode && /^[A-Z]{2}$/.test(where.countryCode) ? where.countryCode : null;
          answer.messages.push({ name, messageTemplate, location: where.city ?? '', countryCode });
        }
      }
      if (fomo.source !== 'conversions') {
        for (const m of fomo.messages)
          answer.messages.push({
            name: m.name,
            messageTemplate,
            location: m.location,
            countryCode: m.countryCode,
          });
      }
      return answer;
    },
  };
}
export type FomoService = ReturnType<typeof createFomoService>;
