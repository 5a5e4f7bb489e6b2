import {
  ALLOWED_ATTRIBUTES,
  ALLOWED_LINK_TARGETS,
  ALLOWED_STYLES,
  ALLOWED_TAGS,
  ALLOWED_URL_SCHEMES,
  TAG_RENAMES,
  URL_ATTRIBUTES,
} from '@embudo/contracts';
import sanitizeHtml from 'sanitize-html';

/**
 * Characters a browser or a later trim() may drop around a URL: C0/C1 controls and Unicode spaces.
 * sanitize-html strips only \x00-\x20 before checking the scheme, so we strip the rest from both
 * ends first. Inside a URL only tabs and line breaks go (browsers drop them there too), so a space
 * inside a link stays where the owner put it.
 */
const INVISIBLE_AT_ENDS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /^[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]+$/g;
const TAB_OR_NEWLINE = /[\t\n\r]/g;

/** Applied to every tag before the allow-lists: clean URL attributes, drop `!important` styles. */
function normaliseAttributes(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const out: sanitizeHtml.Attributes = { ...attribs };
  for (const name of URL_ATTRIBUTES) {
    const value = out[name];
    if (value !== undefined) out[name] = value.replace(TAB_OR_NEWLINE, '').replace(INVISIBLE_AT_ENDS, '');
  }
  if (out.style !== undefined) {
    // The policy allows a value, not a value that overrides the page's own styles.
    out.style = out.style
      .split(';')
      .filter((declaration) => !/!\s*important/i.test(declaration))
      .join(';');
  }
  return { tagName, attribs: out };
}

/** The policy of contracts, in sanitize-html's terms. Built once. */
const options: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS.filter((t) => !(t in TAG_RENAMES)),
  allowedAttributes: Object.fromEntries(
    Object.entries(ALLOWED_ATTRIBUTES).map(([tag, attrs]) => [tag, [...attrs]]),
  ),
  allowedStyles: {
    '*': Object.fromEntries(Object.entries(ALLOWED_STYLES).map(([prop, values]) => [prop, [...values]])),
  },
  allowedSchemes: [...ALLOWED_URL_SCHEMES],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedSchemesByTag: {},
  transformTags: {
    '*': normaliseAttributes,
    ...Object.fromEntries(Object.entries(TAG_RENAMES).map(([from, to]) => [from, to])),
    a: (tagName, attribs) => {
      const target = attribs.target;
      if (target !== undefined && !(ALLOWED_LINK_TARGETS as readonly string[]).includes(target))
        delete attribs.target;
      return { tagName, attribs };
    },
  },
  disallowedTagsMode: 'discard',
  nonTextTags: [
    'style',
    'script',
    'textarea',
    'option',
    'noscript',
    'title',
    'template',
    'iframe',
    'xmp',
    'noembed',
    'noframes',
    'plaintext',
  ],
  parseStyleAttributes: true,
};

/** Sanitises owner rich text with the one policy of visitor-behaviour §5 (architecture §5.8). */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, options);
}
