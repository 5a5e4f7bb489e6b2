/**
 * Where each route of the API answers: its method, its path and whom it serves. The zod-free half of
 * the route table (`./table.ts` adds each route's schemas and documentation to these entries, key for
 * key), so the browser's client can call a route without shipping a schema library.
 *
 * A visitor route's path is the reading visitor-behaviour §7 writes and our visitor app calls; the server answers
 * it both with and without the /api prefix (architecture §5.1) unless the entry says `oneReading`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Visitors' browsers (no credentials); owners (an API key, or a Studio session cookie); the Studio's
 * own sign-in routes (a session cookie, or none yet); or the operator's own machinery.
 */
export type Audience = 'visitor' | 'owner' | 'studio' | 'operator';

export interface RoutePath {
  readonly method: HttpMethod;
  /** Fastify syntax: `:name` is a path parameter. */
  readonly path: string;
  readonly audience: Audience;
  /** A visitor route that answers at its path only, not also under the other prefix reading. */
  readonly oneReading?: boolean;
}

type PathGroups = Record<string, Record<string, RoutePath>>;

export const OPERATOR_ROUTE_PATHS = {
  operator: {
    health: { method: 'GET', path: '/api/health', audience: 'operator' },
    tlsAsk: { method: 'GET', path: '/internal/tls/ask', audience: 'operator' },
  },
} as const satisfies PathGroups;

/** The Studio's sign-in, under /api/auth (a session cookie; sign-in and first run need none yet). */
export const STUDIO_ROUTE_PATHS = {
  auth: {
    setupState: { method: 'GET', path: '/api/auth/setup', audience: 'studio' },
    setup: { method: 'POST', path: '/api/auth/setup', audience: 'studio' },
    signIn: { method: 'POST', path: '/api/auth/sign-in', audience: 'studio' },
    signOut: { method: 'POST', path: '/api/auth/sign-out', audience: 'studio' },
    session: { method: 'GET', path: '/api/auth/session', audience: 'studio' },
    switchAccount: { method: 'PUT', path: '/api/auth/session/account', audience: 'studio' },
    updateProfile: { method: 'PATCH', path: '/api/auth/profile', audience: 'studio' },
    changePassword: { method: 'PUT', path: '/api/auth/password', audience: 'studio' },
    invitation: { method: 'GET', path: '/api/auth/invitations/:token', audience: 'studio' },
    acceptInvitation: { method: 'POST', path: '/api/auth/invitations/:token/accept', audience: 'studio' },
  },
} as const satisfies PathGroups;

/** The owner API, under /api/owner (an API key, or a Studio session). */
export const OWNER_ROUTE_PATHS = {
  account: {
    get: { method: 'GET', path: '/api/owner/account', audience: 'owner' },
    update: { method: 'PATCH', path: '/api/owner/account', audience: 'owner' },
  },
  members: {
    list: { method: 'GET', path: '/api/owner/members', audience: 'owner' },
    update: { method: 'PATCH', path: '/api/owner/members/:id', audience: 'owner' },
    remove: { method: 'DELETE', path: '/api/owner/members/:id', audience: 'owner' },
  },
  invitations: {
    list: { method: 'GET', path: '/api/owner/invitations', audience: 'owner' },
    create: { method: 'POST', path: '/api/owner/invitations', audience: 'owner' },
    remove: { method: 'DELETE', path: '/api/owner/invitations/:id', audience: 'owner' },
  },
  apiKeys: {
    list: { method: 'GET', path: '/api/owner/api-keys', audience: 'owner' },
    create: { method: 'POST', path: '/api/owner/api-keys', audience: 'owner' },
    remove: { method: 'DELETE', path: '/api/owner/api-keys/:id', audience: 'owner' },
  },
  funnels: {
    list: { method: 'GET', path: '/api/owner/funnels', audience: 'owner' },
    create: { method: 'POST', path: '/api/owner/funnels', audience: 'owner' },
    templates: { method: 'GET', path: '/api/owner/funnel-templates', audience: 'owner' },
    createFromTemplate: { method: 'POST', path: '/api/owner/funnels/from-template', audience: 'owner' },
    get: { method: 'GET', path: '/api/owner/funnels/:id', audience: 'owner' },
    update: { method: 'PATCH', path: '/api/owner/funnels/:id', audience: 'owner' },
    duplicate: { method: 'POST', path: '/api/owner/funnels/:id/duplicate', audience: 'owner' },
    remove: { method: 'DELETE', path: '/api/owner/funnels/:id', audience: 'owner' },
  },
  pages: {
    list: { method: 'GET', path: '/api/owner/funnels/:id/pages', audience: 'owner' },
    create: { method: 'POST', path: '/api/owner/funnels/:id/pages', audience: 'owner' },
    reorder: { method: 'PUT', path: '/api/owner/funnels/:id/pages/order', audience: 'owner' },
    get: { method: 'GET', path: '/api/owner/pages/:id', audience: 'owner' },
    update: { method: 'PATCH', path: '/api/owner/pages/:id', audience: 'owner' },
    duplicate: { method: 'POST', path: '/api/owner/pages/:id/duplicate', audience: 'owner' },
    remove: { method: 'DELETE', path: '/api/owner/pages/:id', audience: 'owner' },
  },
  leads: {
    list: { method: 'GET', path: '/api/owner/funnels/:id/leads', audience: 'owner' },
    create: { method: 'POST', path: '/api/owner/funnels/:id/leads', audience: 'owner' },
    import: { method: 'POST', path: '/api/owner/funnels/:id/leads/import', audience: 'owner' },
    get: { method: 'GET', path: '/api/owner/leads/:id', audience: 'owner' },
    update: { method: 'PATCH', path: '/api/owner/leads/:id', audience: 'owner' },
    newLink: { method: 'POST', path: '/api/owner/leads/:id/link', audience: 'owner' },
    remove: { method: 'DELETE', path: '/api/owner/leads/:id', audience: 'owner' },
  },
  domains: {
    list: { method: 'GET', path: '/api/owner/domains', audience: 'owner' },
    create: { method: 'POST', path: '/api/owner/domains', audience: 'owner' },
    remove: { method: 'DELETE', path: '/api/owner/domains/:id', audience: 'owner' },
    verify: { method: 'POST', path: '/api/owner/domains/:id/verify', audience: 'owner' },
  },
  previews: {
    create: { method: 'POST', path: '/api/owner/pages/:id/preview', audience: 'owner' },
  },
  analytics: {
    page: { method: 'GET', path: '/api/owner/pages/:id/analytics', audience: 'owner' },
    funnel: { method: 'GET', path: '/api/owner/funnels/:id/analytics', audience: 'owner' },
    followUps: { method: 'GET', path: '/api/owner/funnels/:id/follow-ups', audience: 'owner' },
    leadTimeline: { method: 'GET', path: '/api/owner/leads/:id/timeline', audience: 'owner' },
  },
} as const satisfies PathGroups;

/** The visitor API: what the visitor app calls (it imports these alone, so its bundle has no more). */
export const VISITOR_ROUTE_PATHS = {
  site: {
    resolve: { method: 'POST', path: '/api/funnel/site', audience: 'visitor' },
    preview: { method: 'POST', path: '/funnel/site/preview', audience: 'visitor' },
    landing: { method: 'POST', path: '/api/funnel/landing', audience: 'visitor' },
  },
  tracking: {
    startSession: { method: 'POST', path: '/funnel/track/page', audience: 'visitor' },
    endSession: { method: 'PUT', path: '/funnel/track/page/:sessionId', audience: 'visitor' },
    action: { method: 'POST', path: '/funnel/track/action', audience: 'visitor' },
    video: { method: 'POST', path: '/funnel/track/video', audience: 'visitor' },
  },
  conversions: {
    videoViewed: { method: 'PUT', path: '/api/funnel/site/complete', audience: 'visitor' },
    offerEvent: { method: 'POST', path: '/api/funnel/track/event/offert', audience: 'visitor' },
    prelaunch: { method: 'POST', path: '/lead/internal/conversion/prelaunch', audience: 'visitor' },
    leadIp: { method: 'POST', path: '/api/funnel/lead/ip', audience: 'visitor' },
  },
  fomo: {
    messages: { method: 'POST', path: '/funnel/fomo', audience: 'visitor' },
  },
  geo: {
    lookup: { method: 'GET', path: '/api/geo', audience: 'visitor' },
  },
  pixel: {
    record: { method: 'POST', path: '/api/funnel/track/pixel', audience: 'visitor' },
  },
  cspReport: {
    // Browsers post here by the page's policy (report-uri): one address, no second reading.
    report: { method: 'POST', path: '/api/csp-report', audience: 'visitor', oneReading: true },
  },
} as const satisfies PathGroups;

/** Every route's path. Pure: a bundle that only uses the visitor's paths keeps no other. */
// Object.assign is typed for at most three sources (more would be `any`), hence two calls.
export const ROUTE_PATHS = /* @__PURE__ */ Object.assign(
  /* @__PURE__ */ Object.assign({}, OPERATOR_ROUTE_PATHS, STUDIO_ROUTE_PATHS),
  OWNER_ROUTE_PATHS,
  VISITOR_ROUTE_PATHS,
);

export type RoutePaths = typeof ROUTE_PATHS;

/** The /api prefix a visitor route answers with and without (architecture §5.1). */
export const API_PREFIX = '/api';

/**
 * The paths a route answers at, the documented one first: a visitor route's path with the /api
 * prefix, then without it (unless it has one reading); any other route's path as written.
 */
export function readingsOf(route: RoutePath): { path: string; documented: boolean }[] {
  if (route.audience !== 'visitor' || route.oneReading) return [{ path: route.path, documented: true }];
  const bare = route.path.startsWith(`${API_PREFIX}/`) ? route.path.slice(API_PREFIX.length) : route.path;
  return [
    { path: `${API_PREFIX}${bare}`, documented: true },
    { path: bare, documented: false },
  ];
}
