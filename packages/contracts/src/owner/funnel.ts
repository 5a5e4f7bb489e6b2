import { z } from 'zod';
import { OWNER_LIMIT_DEFAULTS } from '../constants';
import { Language, TypeFunnel } from '../enums';
import { HttpUrl, Id, IsoDateTime, Name } from '../primitives';

/** When a lead's benefit expires: never, at a fixed moment, or some hours after the lead was created. */
export const DeadlinePolicy = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('none') }),
  z.strictObject({ mode: z.literal('fixed'), at: z.iso.datetime({ offset: true }) }),
  z.strictObject({
    mode: z.literal('afterLeadCreated'),
    hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 365),
  }),
]);
export type DeadlinePolicy = z.infer<typeof DeadlinePolicy>;

const FomoSite = z.strictObject({ fomoApplied: z.boolean() });

export const FomoMessage = z.strictObject({
  name: z.string().trim().min(1).max(60),
  location: z.string().trim().max(80),
  countryCode: z
    .string()
    .regex(/^[A-Z]{2}$/, 'a 2-letter upper-case country code such as MX')
    .nullable(),
});

/** Social-proof popups (visitor-behaviour §4.8): off unless the owner turns them on (architecture §5.13). */
export const FomoSettings = z.strictObject({
  lpi: FomoSite,
  video: FomoSite,
  offert: FomoSite,
  intervalSeconds: z.number().int().min(5).max(3600),
  position: z.enum(['left', 'right']),
  /** Popups from the funnel's real conversions, from the owner's list, or both. */
  source: z.enum(['conversions', 'messages', 'both']),
  messages: z.array(FomoMessage).max(200),
});
export type FomoSettings = z.infer<typeof FomoSettings>;

export const FakeUserRange = z
  .tuple([z.number().int().min(0).max(1_000_000), z.number().int().min(0).max(1_000_000)])
  .refine(([min, max]) => min <= max, 'the first number must not exceed the second');

/** The owner's Meta pixel. The access token is write-only: answers only say whether one is set. */
export const PixelSettingsInput = z.strictObject({
  pixelId: z
    .string()
    .regex(/^\d{5,20}$/, 'a pixel id is 5 to 20 digits')
    .nullable(),
  accessToken: z.string().min(10).max(512).nullable(),
  testEventCode: z.string().max(64).nullable(),
});
export type PixelSettingsInput = z.infer<typeof PixelSettingsInput>;
export const PixelSettings = z.object({
  pixelId: z.string().nullable(),
  hasAccessToken: z.boolean(),
  testEventCode: z.string().nullable(),
});

/** What a lead sees once the deadline has passed (visitor-behaviour §2.2 step 5). */
export const ExpiredPage = z.strictObject({
  title: z.string().max(200),
  subtitle: z.string().max(300),
  description: z.string().max(2000),
  highlight: z.string().max(300),
  bgImageUrl: HttpUrl.nullable(),
});
export type ExpiredPage = z.infer<typeof ExpiredPage>;

export const FunnelFields = {
  name: Name,
  typeFunnel: TypeFunnel,
  language: Language,
  deadline: DeadlinePolicy,
  /** When true a passed deadline does not expire the page (visitor-behaviour §3: default true). */
  isDeadlineExceptionOn: z.boolean(),
  isPreLaunch: z.boolean(),
  isFakeUserOnlineOn: z.boolean(),
  fakeUserRange: FakeUserRange,
  isFomoOn: z.boolean(),
  fomo: FomoSettings,
  expiredPage: ExpiredPage,
};

export const FunnelSettings = z.object(FunnelFields);
export type FunnelSettings = z.infer<typeof FunnelSettings>;

export const FUNNEL_DEFAULTS: Omit<FunnelSettings, 'name'> = {
  typeFunnel: 'VSL',
  language: 'es',
  deadline: { mode: 'none' },
  isDeadlineExceptionOn: true,
  isPreLaunch: false,
  isFakeUserOnlineOn: false,
  fakeUserRange: [20, 100],
  isFomoOn: false,
  fomo: {
    lpi: { fomoApplied: false },
    video: { fomoApplied: false },
    offert: { fomoApplied: false },
    intervalSeconds: 20,
    position: 'left',
    source: 'both',
    messages: [],
  },
  expiredPage: { title: '', subtitle: '', description: '', highlight: '', bgImageUrl: null },
};

/** Nested settings merge one level deep on update: `fomo: {position: 'right'}` changes only that. */
const updatableFields = {
  ...FunnelFields,
  fomo: FomoSettings.partial(),
  expiredPage: ExpiredPage.partial(),
  pixel: PixelSettingsInput.partial(),
};

export const FunnelCreate = z
  .strictObject(updatableFields)
  .partial()
  .required({ name: true })
  .describe(
    `A new funnel. An account has at most MAX_FUNNELS_PER_ACCOUNT funnels ` +
      `(${OWNER_LIMIT_DEFAULTS.funnelsPerAccount} unless the operator set another limit).`,
  );
export type FunnelCreate = z.infer<typeof FunnelCreate>;
export type FunnelCreateInput = z.input<typeof FunnelCreate>;

export const FunnelUpdate = z.strictObject(updatableFields).partial();
export type FunnelUpdate = z.infer<typeof FunnelUpdate>;

export const Funnel = z.object({
  id: Id,
  ...FunnelFields,
  pixel: PixelSettings,
  pageCount: z.number().int(),
  /** How many leads the funnel has. */
  leadCount: z.number().int(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Funnel = z.infer<typeof Funnel>;

/** Ready-made funnels to start from: the demo's VSL launch and its WhatsApp landing (architecture §7). */
export const FUNNEL_TEMPLATES = ['vsl-launch', 'whatsapp-landing'] as const;
export const FunnelTemplateId = z.enum(FUNNEL_TEMPLATES);
export type FunnelTemplateId = z.infer<typeof FunnelTemplateId>;

export const FunnelTemplate = z.object({
  id: FunnelTemplateId,
  typeFunnel: TypeFunnel,
  language: Language,
  pageCount: z.number().int(),
});
export type FunnelTemplate = z.infer<typeof FunnelTemplate>;

/** A new funnel with a template's settings and pages (its leads are never copied). */
export const FunnelFromTemplate = z.strictObject({
  template: FunnelTemplateId,
  name: Name,
  language: Language.optional(),
});
export type FunnelFromTemplate = z.infer<typeof FunnelFromTemplate>;

/** A copy of a funnel with its settings and pages, without its leads or their events. */
export const FunnelDuplicate = z.strictObject({ name: Name.optional() }).nullish();
export type FunnelDuplicate = z.infer<typeof FunnelDuplicate>;
