const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * The name a page greets the lead by (spec §2.4): the first name, or the default greeting ('Oye')
 * when there is no usable name, such as a phone number saved as the name.
 */
export function greetingName(name: string, fallback: string): string {
  const first = name.trim().split(/\s+/)[0] ?? '';
  return first === '' || /^[\d\s+().-]+$/.test(first) ? fallback : first;
}

/**
 * Fills `{name}` in sanitised rich text with the greeting name, escaped: the owner writes
 * "{name}, this is for you" and each lead reads their own name.
 */
export function personalise(html: string, greeting: string): string {
  if (!html.includes('{name}')) return html;
  return html.split('{name}').join(greeting.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c));
}
