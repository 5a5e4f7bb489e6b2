/**
 * The zod-free part of the contracts: what the browser bundle may import at run time. Everything
 * else the web app takes from '@embudo/contracts' is types only (lint enforces it), so no schema
 * library ships to phones.
 */
export * from './constants';
export * from './sanitize-policy';
export { DEV_BASE_DOMAINS, SITE_QUERY_PARAMS, parseSiteContext } from './visitor/site-context-parse';
export * from './video-embeds';
export * from './host';
export * from './routes/paths';
