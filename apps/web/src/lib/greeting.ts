const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * The name a page greets the lead by (visitor-behaviour §2.4): the first name, or the default greeting ('Oye')
 * when there is no usable name, such as a phone number saved as the name.
 */
export function greetingName(name: string, fallback: string): string {
  const first = name.trim().split(/\s+/)[0] ?? '';
  return first === '' || /^[\d\s+().-]+$/.test(first) ? fallback : first;
}

/**
 * A tag of sanitised rich text. The sanitiser (sanitize-html, on save) writes `<` and `>` inside
 * attribute values as entities, so a tag ends at its first `>`.
 */
const TAG = /<[^>]*>/g;

/**
 * Fills `{name}` in sanitised rich text with the greeting name, escaped: the owner writes
 * "{name}, this is for you" and each lead reads their own name. Only in text, never inside a tag: the
 * name comes from the lead, after the sanitiser ran, and in an attribute it could turn
 * `<a href="{name}">` into a `javascript:` link.
 */
export function personalise(html: string, greeting: string): string {
  if (!html.includes('{name}')) return html;
  const name = greeting.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
  const fill = (text: string) => text.split('{name}').join(name);
  let out = '';
  let last = 0;
  for (const tag of html.matchAll(TAG)) {
    out += fill(html.slice(last, tag.index)) + tag[0];
    last = tag.index + tag[0].length;
  }
  return out + fill(html.slice(last));
}
