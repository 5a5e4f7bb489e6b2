/**
 * The lower-case host name of a page's domain as the site context and the visitor API carry it
 * (`userDomain`: protocol and host), or of a bare host; '' when it does not parse.
 */
export function hostOf(domain: string): string {
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(domain) ? domain : `http://${domain}`;
  // One parse: the server runs this for every page view, and an address that does not parse is rare.
  try {
    return new URL(candidate).hostname.toLowerCase();
  } catch {
    return '';
  }
}
