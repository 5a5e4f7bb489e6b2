import { z } from 'zod';

export const FomoSite = z.enum(['LPI', 'VIDEO', 'OFFERT']);
export type FomoSite = z.infer<typeof FomoSite>;

/** POST /api/funnel/fomo. */
export const FomoRequest = z.object({
  idFunnel: z.string().min(1).max(64),
  location: z.record(z.string().max(60), z.unknown()).default({}),
  site: FomoSite,
});
export type FomoRequest = z.infer<typeof FomoRequest>;

export const FomoMessageOut = z.object({
  name: z.string(),
  /** The sentence with `{name}` and `{location}` still in it; the page fills them. */
  messageTemplate: z.string(),
  location: z.string(),
  countryCode: z.string().nullable(),
});

export const FomoResponse = z.object({
  messages: z.array(FomoMessageOut),
  interval: z.number().int(),
  position: z.enum(['left', 'right']),
});
export type FomoResponse = z.infer<typeof FomoResponse>;
