import { z } from 'zod';
import { Id, IsoDateTime, Name } from '../primitives';

export const ApiKey = z.object({
  id: Id,
  label: z.string(),
  /** The key's first characters, so an owner can tell keys apart; the rest is never shown again. */
  prefix: z.string(),
  createdAt: IsoDateTime,
  lastUsedAt: IsoDateTime.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyCreate = z.strictObject({ label: Name });
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

/** The key is shown once, here: only its hash is stored (architecture §5.5). */
export const ApiKeyCreated = z.object({ apiKey: ApiKey, key: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;
