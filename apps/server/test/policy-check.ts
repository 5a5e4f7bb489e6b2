import { ALLOWED_STYLES, ALLOWED_URL_SCHEMES } from '@embudo/contracts';

/**
 * Checks of visitor-behaviour §5's policy on HTML that was already sanitised, shared by the sanitiser's tests and
 * the end-to-end XSS test, so both hold output to the same rules.
 */

const hasOwn = (record: object, key: string): boolean => Object.prototype.hasOwnProperty.call(record, key);
const SCHEMES: ReadonlySet<string> = new Set(ALLOWED_URL_SCHEMES);

/** Removes whitespace (ASCII and Unicode) and C0/C1 control characters, as URL-smuggling tricks rely on. */
export function stripInvisible(value: string): string {
  return value.replace(/[\p{Cc}\p{White_Space}\s]/gu, '');
}

/** Returns why a URL attribute value (already entity-decoded by the parser) breaks the policy, if it does. */
export function urlViolation(raw: string): string | undefined {
  const url = stripInvisible(raw);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  if (scheme !== undefined) {
    return SCHEMES.has(scheme.toLowerCase()) ? undefined : `scheme "${scheme}" is not allowed`;
  }
  if (/^[\\/]{2}/.test(url)) return 'protocol-relative URL';
  return undefined;
}

/** Returns every style declaration of a style attribute that breaks the policy. */
export function styleViolations(style: string): string[] {
  const violations: string[] = [];
  for (const declaration of style.split(';')) {
    if (declaration.trim() === '') continue;
    const colon = declaration.indexOf(':');
    if (colon < 0) {
      violations.push(`style declaration without a value: "${declaration}"`);
      continue;
    }
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    const patterns = hasOwn(ALLOWED_STYLES, property) ? ALLOWED_STYLES[property] : undefined;
    if (patterns === undefined) {
      violations.push(`style property "${property}" is not allowed`);
    } else if (!patterns.some((pattern) => pattern.test(value))) {
      violations.push(`style value "${value}" is not allowed for "${property}"`);
    }
  }
  return violations;
}
