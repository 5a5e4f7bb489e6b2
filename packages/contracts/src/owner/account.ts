import { z } from 'zod';
import { SubscriptionStatus } from '../enums';
import { Color, Id, IsoDateTime, Name, TimeZone } from '../primitives';

/** Words used by routes; an account slug can never be one of them (architecture §5.1). */
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
  /** Button colour for WhatsApp landing pages (architecture §5.12); null keeps each page's own colour. */
  lpiButtonBgColor: Color.nullable().default(null),
  /** Where the legal pages say visitors can write. */
  contactEmail: z.email().max(254).nullable().default(null),
  /** Where the account's days begin and end: analytics counts by its calendar days (decision 25). */
  timeZone: TimeZone.default('UTC'),
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

/** A change of settings: only the fields sent change; no default stands in for one left out. */
const SettingsChange = z.strictObject({
  lpiButtonBgColor: AccountSettings.shape.lpiButtonBgColor.unwrap().optional(),
  contactEmail: AccountSettings.shape.contactEmail.unwrap().optional(),
  timeZone: TimeZone.optional(),
});

export const AccountUpdate = z.strictObject({
  name: Name.optional(),
  settings: SettingsChange.optional(),
});
export type AccountUpdate = z.infer<typeof AccountUpdate>;

/**
 * The account's settings as the owner API reads them. `whatsappLandingButtonBgColor` is the stored
 * `lpiButtonBgColor` (LPI: the landing page that redirects to WhatsApp), spelt out for API clients.
 */
export const AccountSettingsAnswer = z.strictObject({
  /** Button colour for WhatsApp landing pages (architecture §5.12); null keeps each page's own colour. */
  whatsappLandingButtonBgColor: AccountSettings.shape.lpiButtonBgColor,
  contactEmail: AccountSettings.shape.contactEmail,
  timeZone: TimeZone,
});
export type AccountSettingsAnswer = z.infer<typeof AccountSettingsAnswer>;

/** GET and PATCH /api/owner/account answer the account with its settings under their API names. */
export const AccountAnswer = Account.extend({ settings: AccountSettingsAnswer });
export type AccountAnswer = z.infer<typeof AccountAnswer>;

export function toAccountAnswer(account: Account): AccountAnswer {
  const { lpiButtonBgColor, contactEmail, timeZone } = account.settings;
  return { ...account, settings: { whatsappLandingButtonBgColor: lpiButtonBgColor, contactEmail, timeZone } };
}

/**
 * PATCH /api/owner/account as sent: the settings under their API name, or under the old one
 * (`lpiButtonBgColor`), still accepted so that existing clients keep working; when both are sent the
 * new name wins. Parsed into the stored form (AccountUpdate).
 */
const StoredSettingsUpdate = SettingsChange;

export const AccountUpdateInput = z
  .strictObject({
    name: Name.optional(),
    settings: StoredSettingsUpdate.extend({
      /** Button colour for WhatsApp landing pages; null keeps each page's own colour. */
      whatsappLandingButtonBgColor: AccountSettings.shape.lpiButtonBgColor.unwrap().optional(),
      lpiButtonBgColor: StoredSettingsUpdate.shape.lpiButtonBgColor.meta({
        deprecated: true,
        description: 'The old name of whatsappLandingButtonBgColor, still accepted.',
      }),
    }).optional(),
  })
  .transform(({ settings, ...rest }): AccountUpdate => {
    if (settings === undefined) return rest;
    const { whatsappLandingButtonBgColor, ...stored } = settings;
    return {
      ...rest,
      settings:
        whatsappLandingButtonBgColor === undefined
          ? stored
          : { ...stored, lpiButtonBgColor: whatsappLandingButtonBgColor },
    };
  });
export type AccountUpdateInput = z.input<typeof AccountUpdateInput>;

export const AccountCreate = z.strictObject({
  slug: AccountSlug,
  name: Name,
  settings: AccountSettings.partial().optional(),
});
export type AccountCreate = z.infer<typeof AccountCreate>;

export const AccountCreated = z.object({ account: Account, apiKey: z.string() });
export type AccountCreated = z.infer<typeof AccountCreated>;
