import {
  ALLOWED_ATTRIBUTES,
  ALLOWED_LINK_TARGETS,
  ALLOWED_STYLES,
  ALLOWED_TAGS,
  ALLOWED_URL_SCHEMES,
  TAG_RENAMES,
  URL_ATTRIBUTES,
} from '@embudo/contracts/runtime';
import DOMPurify from 'dompurify';

/**
 * The browser's second pass over rich text (architecture §5.8, defence in depth), with DOMPurify
 * configured from the one policy in contracts. The server already sanitised on save; this pass
 * guards data the browser fetches later. Loaded on demand: the first paint never waits for it.
 */
const purifier = DOMPurify();

const allTags = new Set<string>(ALLOWED_TAGS);
const everyAttribute = [...new Set(Object.values(ALLOWED_ATTRIBUTES).flat())];
const urlAttributes = new Set<string>(URL_ATTRIBUTES);
const schemes = new RegExp(`^(?:${ALLOWED_URL_SCHEMES.join('|')}):`, 'i');
// Control characters and Unicode spaces a browser ignores inside a scheme (as the server strips them).
const IGNORED_IN_URL =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/g;

function allowedUrl(value: string): boolean {
  const compact = value.replace(IGNORED_IN_URL, '');
  // Protocol-relative links ('//host', and the backslash forms browsers read the same way) leave
  // the site as surely as a scheme does; the server refuses them too.
  if (/^[/\\]{2}/.test(compact)) return false;
  // No scheme (a relative link) is allowed; a scheme must be one of the policy's.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  return scheme === null || schemes.test(compact);
}

function allowedStyle(value: string): string {
  const kept: string[] = [];
  for (const declaration of value.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const text = declaration.slice(colon + 1).trim();
    // The policy allows values, not overrides.
    if (/!\s*important/i.test(text)) continue;
    const rules = ALLOWED_STYLES[property];
    if (rules?.some((rule) => rule.test(text))) kept.push(`${property}:${text}`);
  }
  return kept.join(';');
}

purifier.addHook('uponSanitizeAttribute', (node, data) => {
  const tag = node.nodeName.toLowerCase();
  const name = data.attrName.toLowerCase();
  const allowed =
    (ALLOWED_ATTRIBUTES[tag] ?? []).includes(name) || (ALLOWED_ATTRIBUTES['*'] ?? []).includes(name);
  if (!allowed) {
    data.keepAttr = false;
    return;
  }
  if (urlAttributes.has(name) && !allowedUrl(data.attrValue)) data.keepAttr = false;
  if (name === 'target' && !(ALLOWED_LINK_TARGETS as readonly string[]).includes(data.attrValue)) {
    data.keepAttr = false;
  }
  if (name === 'style') {
    const style = allowedStyle(data.attrValue);
    if (style === '') data.keepAttr = false;
    else data.attrValue = style;
  }
});

const CONFIG = {
  ALLOWED_TAGS: [...allTags],
  ALLOWED_ATTR: everyAttribute,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // The policy in contracts is the one rule: DOMPurify's extra XML rule would drop values the server
  // keeps (an alt text with "-->" in it), and the same page would read differently after a fetch.
  SAFE_FOR_XML: false,
};

const allowedOn = (tag: string, name: string) =>
  (ALLOWED_ATTRIBUTES[tag] ?? []).includes(name) || (ALLOWED_ATTRIBUTES['*'] ?? []).includes(name);

/** Rich text as the policy allows it, with `b` renamed to `strong`. */
export function sanitiseRichText(html: string): string {
  const clean = purifier.sanitize(html, CONFIG);
  // A second pass in a <template>, whose content is inert (no image in it loads): `b` becomes
  // `strong`, and attributes DOMPurify must leave in place (an emptied `is`) go.
  const template = document.createElement('template');
  template.innerHTML = clean;
  const doc = template.content.ownerDocument;
  for (const element of Array.from(template.content.querySelectorAll('*'))) {
    const tag = element.localName;
    const target = TAG_RENAMES[tag] ?? tag;
    let current = element;
    if (target !== tag) {
      const renamed = doc.createElement(target);
      renamed.append(...Array.from(element.childNodes));
      for (const attribute of Array.from(element.attributes))
        renamed.setAttribute(attribute.name, attribute.value);
      element.replaceWith(renamed);
      current = renamed;
    }
    for (const attribute of Array.from(current.attributes)) {
      if (!allowedOn(target, attribute.name)) current.removeAttribute(attribute.name);
    }
  }
  return template.innerHTML;
}
