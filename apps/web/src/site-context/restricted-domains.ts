/**
 * Hosts that never serve funnel pages (visitor-behaviour §2.1 "a separate list of test or invalid domains"): the
 * names RFC 2606 reserves for examples and tests.
 */
export const INVALID_DOMAINS = ['example.com', 'example.net', 'example.org'] as const;
