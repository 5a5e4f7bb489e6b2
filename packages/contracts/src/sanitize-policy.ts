/**
 * The one rich-text policy of visitor-behaviour §5, written as data (architecture §5.8). The server applies it when an
 * owner saves rich text; the browser applies it again before display. Engines read this object; no
 * engine keeps a list of its own.
 */

export const RICH_TEXT_FIELDS = ['topline', 'headline', 'subheadline', 'buttonCopy'] as const;
export type RichTextField = (typeof RICH_TEXT_FIELDS)[number];

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;

export const ALLOWED_TAGS = [
  'p',
  'span',
  'strong',
  'em',
  'u',
  'b',
  'i',
  'br',
  'div',
  ...HEADINGS,
  'ul',
  'ol',
  'li',
  'a',
  'img',
] as const;

/** Tags rewritten to another before anything else: `b` becomes `strong`. */
export const TAG_RENAMES: Readonly<Record<string, string>> = { b: 'strong' };

/** Attributes allowed per tag; `*` applies to every allowed tag. */
export const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  '*': ['class'],
  span: ['style'],
  div: ['style'],
  p: ['style'],
  ...Object.fromEntries(HEADINGS.map((h) => [h, ['style']])),
  a: ['href', 'target', 'style'],
  img: ['src', 'alt', 'style'],
};

export const ALLOWED_URL_SCHEMES = ['http', 'https', 'ftp', 'mailto', 'tel'] as const;

/** Attributes that hold a URL and so must have an allowed scheme. */
export const URL_ATTRIBUTES = ['href', 'src'] as const;

const COLOR =
  /^(#[0-9a-fA-F]{6}|rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)|rgba\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*(0|1|0?\.\d+|1\.0+)\s*\))$/;
const PX = '-?\\d+(\\.\\d+)?px';
const BOX = new RegExp(`^(0|${PX})(\\s+(0|${PX})){0,3}$`);

/** Each allowed CSS property with the values it may take (whole value must match). */
export const ALLOWED_STYLES: Readonly<Record<string, readonly RegExp[]>> = {
  'text-decoration': [/^underline$/],
  color: [COLOR],
  'background-color': [COLOR],
  'font-weight': [/^(bold|normal|\d{1,3})$/],
  'font-style': [/^(italic|normal)$/],
  'text-align': [/^(left|center|right|justify)$/],
  'font-size': [/^\d+(\.\d+)?(px|em|rem|%)$/],
  'line-height': [/^\d+(\.\d+)?(px)?$/],
  margin: [BOX],
  padding: [BOX],
};

/** `target` values a link may carry. */
export const ALLOWED_LINK_TARGETS = ['_blank', '_self'] as const;
