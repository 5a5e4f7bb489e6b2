import { z } from 'zod';
import { SubscriptionStatus } from '../enums';
import { Color, Id, IsoDateTime, Name } from '../primitives';

/** Words used by routes; an account slug can never be one of them (DESIGN §5.1). */
export const RESERVED_SLUGS = [
  'api',
  'assets',
  'funnel',
  'lead',
  'static',
  'docs',
  'health',
  'admin',
  'owner',
  'studio',
  'preview',
  'favicon.ico',
  'robots.txt',
  'sitemap.xml',
  'login',
  'logout',
  'app',
  'www',
  'public',
] as const;

export const AccountSlug = z
  .string()
  .trim()
  .toLowerCase()
  .min(2)
  .max(32)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'a slug is lower-case letters, digits and inner hyphens')
  .refine((slug) => !(RESERVED_SLUGS as readonly string[]).includes(slug), 'this slug is reserved');

export const AccountSettings = z.strictObject({
  /** Button colour for WhatsApp landing pages (DESIGN §5.12); null keeps each page's own colour. */
  lpiButtonBgColor: Color.nullable().default(null),
  /** Where the legal pages say visitors can write. */
  contactEmail: z.email().max(254).nullable().default(null),
});
export type AccountSettings = z.infer<typeof AccountSettings>;

export const Account = z.object({
  id: Id,
  slug: z.string(),
  name: z.string(),
  subscriptionStatus: SubscriptionStatus,
  settings: AccountSettings,
  createdAt: IsoDateTime,
});
export type Account = z.infer<typeof Account>;

export const AccountUpdate = z.strictObject({
  name: Name.optional(),
  settings: AccountSettings.partial().optional(),
});
export type AccountUpdate = z.infer<typeof AccountUpdate>;

export const AccountCreate = z.strictObject({
  slug: AccountSlug,
  name: Name,
  settings: AccountSettings.partial().optional(),
});
export type AccountCreate = z.infer<typeof AccountCreate>;

export const AccountCreated = z.object({ account: Account, apiKey: z.string() });
export type AccountCreated = z.infer<typeof AccountCreated>;
