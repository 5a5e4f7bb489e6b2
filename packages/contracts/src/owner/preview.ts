import { z } from 'zod';
import { Id, IsoDateTime } from '../primitives';

export const PREVIEW_DEFAULT_TTL_MINUTES = 24 * 60;

export const PreviewCreate = z.strictObject({
  ttlMinutes: z
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .optional(),
});
export type PreviewCreate = z.infer<typeof PreviewCreate>;

export const PreviewCreated = z.object({
  pageId: Id,
  token: z.string(),
  url: z.string(),
  expiresAt: IsoDateTime,
});
export type PreviewCreated = z.infer<typeof PreviewCreated>;
