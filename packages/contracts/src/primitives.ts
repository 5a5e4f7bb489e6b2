import { z } from 'zod';
import { OWNER_LIMIT_DEFAULTS } from './constants';

export const Id = z.uuid();
export const IdParams = z.strictObject({ id: Id });

/** For routes that take no query parameters: an unknown one is an error, not silently ignored. */
export const NoQuery = z.strictObject({});

/** A colour as the sanitiser policy accepts it (visitor-behaviour §5): 6-digit hex, rgb() or rgba(). */
export const COLOR_PATTERN =
  /^(#[0-9a-fA-F]{6}|rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)|rgba\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*(0|1|0?\.\d+|1\.0+)\s*\))$/;
export const Color = z
  .string()
  .max(40)
  .regex(COLOR_PATTERN, 'a colour is #rrggbb, rgb(r, g, b) or rgba(r, g, b, a)');

/** Short single-line text an owner types (names, labels). */
export const Name = z.string().trim().min(1).max(120);

/**
 * The longest rich text any server accepts; each server's own limit (MAX_RICH_TEXT_CHARS, 20,000
 * characters by default) is at most this, and is checked on the sanitised text.
 */
export const RICH_TEXT_MAX = 100_000;

/** HTML an owner writes; sanitised on save with the policy of visitor-behaviour §5. */
export const RichText = z
  .string()
  .max(RICH_TEXT_MAX)
  .describe(
    `HTML, sanitised when saved. At most MAX_RICH_TEXT_CHARS characters once sanitised ` +
      `(${OWNER_LIMIT_DEFAULTS.richTextChars} unless the operator set another limit), and all of a ` +
      `funnel's pages together hold at most MAX_FUNNEL_CONTENT_CHARS characters of text ` +
      `(${OWNER_LIMIT_DEFAULTS.funnelContentChars} unless set otherwise).`,
  );

/** An absolute http(s) URL (images, video files). */
export const HttpUrl = z
  .string()
  .max(2048)
  .refine(
    (value) => /^https?:\/\//i.test(value) && URL.canParse(value),
    'must be an absolute http or https URL',
  );

/**
 * The address a button sends the visitor to. A link without a scheme is given https:// (visitor-behaviour §5);
 * script, data, protocol-relative and credential-carrying links are refused.
 */
export const ButtonLink = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .transform((value, ctx) => {
    if (value.startsWith('//')) {
      ctx.addIssue({ code: 'custom', message: 'protocol-relative links are not allowed' });
      return z.NEVER;
    }
    const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(value);
    const candidate = hasScheme ? value : `https://${value}`;
    if (!URL.canParse(candidate)) {
      ctx.addIssue({ code: 'custom', message: 'not a valid link' });
      return z.NEVER;
    }
    const url = new URL(candidate);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      ctx.addIssue({ code: 'custom', message: `links with the ${url.protocol} scheme are not allowed` });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'links must not carry a user name or password' });
      return z.NEVER;
    }
    return url.href;
  });

/** A host name as typed in a browser: lower-case labels, no port, no scheme. */
export const Hostname = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/,
    'must be a host name such as promo.example.com',
  );

export const IsoDateTime = z.iso.datetime({ offset: true });

export const Paginated = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export const PaginationQuery = z.strictObject({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * Names Intl accepted. Asking Intl costs more than the rest of reading an account's settings, which
 * every owner request does; the set is bounded because Intl takes any capitalisation of a name.
 */
const knownTimeZones = new Set<string>();

/** Whether this runtime knows the IANA time zone (Intl throws on an unknown one). */
function knownTimeZone(name: string): boolean {
  if (knownTimeZones.has(name)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    return false;
  }
  if (knownTimeZones.size < 1000) knownTimeZones.add(name);
  return true;
}

/** An IANA time zone name (`America/Sao_Paulo`, `Europe/Madrid`, `UTC`). */
export const TimeZone = z
  .string()
  .min(1, { abort: true })
  .max(64, { abort: true })
  .refine(knownTimeZone, 'an IANA time zone name, such as America/Sao_Paulo or Europe/Madrid');
