import { request as httpRequest } from 'node:http';
import {
  ApiError,
  ApiKeyCreated,
  Domain,
  ErrorCode,
  Funnel,
  InvitationCreated,
  LeadCreated,
  Page,
  PageSessionStarted,
  PreviewCreated,
  type Account,
} from '@embudo/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_DIALECTS } from '../../test/databases';
import { markDomainVerified, type TABLES } from '../../test/fixtures';
import { api, startTestServer, type TestServer } from '../../test/server';
import { NO_RATE_LIMIT, read, sessionDetails, type Answer } from '../../test/visitor';
import type { Db } from '../db';
import { loadViteApp } from './vite-apps';
import { VISITOR_PREFIXES } from './visitor-api';

/**
 * Tenant isolation over every route the server registers, owner and public (docs/security.md): two
 * accounts, A and B, and each kind of credential the product has, aimed at A's resources. One test per
 * route × credential:
 *
 * - the credential that is A's and of the right kind opens the route (so every other cell could fail);
 * - B's credentials get B's own data or a refusal, never anything of A's;
 * - a credential of the wrong kind (a lead token as an API key, a key as a lead token, a preview token
 *   where a lead token goes) gets a refusal;
 * - a route that takes no credential answers the same with any credential as with none, and shows
 *   nothing of A's beyond what the spec lets it show.
 *
 * "Nothing of A's" is checked in the answer (none of A's ids, tokens, keys or content markers, unless
 * the request itself carried them) and in the database (every row of A's, read before and after, is
 * unchanged: nothing written, changed or removed). The table must list every registered route.
 *
 * Credentials: the six of the issue plus B's lead token, the credential of B's that visitor calls take
 * (ending A's session with B's lead token is the cross-account attempt a visitor could make).
 */

// ---------------------------------------------------------------------------------------------------
// Credentials: the one place they are made.

const CREDENTIALS = [
  'ownKey',
  'otherKey',
  'ownPreview',
  'otherPreview',
  'ownLead',
  'otherLead',
  'none',
] as const;
type Credential = (typeof CREDENTIALS)[number];

const CREDENTIAL_NAMES: Record<Credential, string> = {
  ownKey: 'A’s API key',
  otherKey: 'B’s API key',
  ownPreview: 'A’s preview token',
  otherPreview: 'B’s preview token',
  ownLead: 'A’s lead token',
  otherLead: 'B’s lead token',
  none: 'no credential',
};

/** What a caller holding this credential sends; A's lead token is the cell's fresh lead's. */
function secretOf(credential: Credential, w: World, t: Target): string | undefined {
  switch (credential) {
    case 'ownKey':
      return w.a.key;
    case 'otherKey':
      return w.b.key;
    case 'ownPreview':
      return w.a.previewToken;
    case 'otherPreview':
      return w.b.previewToken;
    case 'ownLead':
      return t.lead.token;
    case 'otherLead':
      return w.b.lead.token;
    case 'none':
      return undefined;
  }
}

const isKey = (credential: Credential): boolean => credential === 'ownKey' || credential === 'otherKey';

// ---------------------------------------------------------------------------------------------------
// The two accounts, and the markers of A's that must never reach anyone else.

const A_SLUG = 'alpha';
const A_HOST = 'alpha.example.com';
const B_HOST = 'bravo.example.com';
const A_FUNNEL_NAME = 'AlphaFunnelName';
const A_HEADLINE = 'AlphaHeadline';
const B_HEADLINE = 'BravoHeadline';
const A_CONTACT = 'contact@alpha-mail.example';
const A_SURNAME = 'Secretsurname';
const A_EMAIL = 'alphalead@alpha-mail.example';
const A_PHONE = '+1 555 0100 777';
/** Shown by A's social-proof popups to anyone with the funnel's id: the owner chose to show it. */
const A_FOMO_NAME = 'AlphaFomoName';
/** Write-only: no answer ever shows it, not even to A. */
const A_PIXEL_TOKEN = 'AlphaPixelAccessTokenSecret';

interface Tenant {
  account: Account;
  key: string;
  funnel: string;
  pages: string[];
  lead: { id: string; token: string };
  previewToken: string;
  domain: Domain;
}

interface World {
  url: string;
  a: Tenant;
  b: Tenant;
}

/** What a cell makes fresh for itself, so that cells do not depend on each other's order. */
interface Target {
  /** A new lead of A's funnel: "A's lead token" in this cell. */
  lead: { id: string; token: string };
  /** A page session of that lead. */
  session?: string;
  /** A resource of A's for a DELETE to remove. */
  spare?: string;
  /** A's pages in a new order (the last one second: the first page, where leads start, stays), for a reorder. */
  pageOrder?: string[];
}
type Need =
  | 'session'
  | 'spareFunnel'
  | 'sparePage'
  | 'spareDomain'
  | 'spareMember'
  | 'spareInvitation'
  | 'spareApiKey'
  | 'pageOrder';

const made = (value: string | undefined): string => {
  if (value === undefined) throw new Error('the route needs a target its `needs` did not make');
  return value;
};

// ---------------------------------------------------------------------------------------------------
// The route table.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'TRACE' | 'QUERY';

interface Req {
  method: Method;
  path: string;
  /** Another Host than the server's address (a custom domain). */
  host?: string;
  authorization?: string;
  body?: unknown;
}

/** One way of aiming a route at A's resources, with the credential where the route reads one. */
interface Aim {
  /** Where the credential goes, for failure messages. */
  at: string;
  /** The request; `secret` undefined means no credential at all. */
  request: (w: World, t: Target, secret: string | undefined) => Req;
  /** The credential that opens A's resource this way. */
  opens?: Credential;
  /** Credentials answered with the caller's own data (and nothing of A's). */
  own?: readonly Credential[];
  /** A marker of B's that such an answer carries. */
  ownData?: (w: World) => string;
}

type Kind = 'owner' | 'visitor' | 'public';
type Table = (typeof TABLES)[number];

interface RouteCase {
  method: Method;
  /** As registered. */
  path: string;
  kind: Kind;
  /** The credential the route reads and where; for a public route, why it takes none. */
  takes: string;
  aims: readonly Aim[];
  needs?: Need;
  /** Whether the answer did what was asked (visitor calls answer refusals inside an envelope). */
  succeeded: (answer: Answer) => boolean;
  /** A marker of A's that the opening credential's answer shows (a public route: that any answer shows). */
  shows?: (w: World) => string;
  /** Whether the opening credential's call changes A's rows. */
  writes?: boolean;
  /** A public route that writes for A whatever the credential: the tables it writes. */
  writesAnyway?: readonly Table[];
}

let edits = 0;
/** A value that differs on every call, keeping the marker it starts with. */
const edited = (marker: string): string => `${marker} (edit ${++edits})`;

const bearer = (secret: string | undefined): Pick<Req, 'authorization'> =>
  secret === undefined ? {} : { authorization: `Bearer ${secret}` };
const tokenField = (secret: string | undefined): { token?: string } =>
  secret === undefined ? {} : { token: secret };
const field = (answer: Answer, key: string): unknown =>
  typeof answer.body === 'object' && answer.body !== null
    ? (answer.body as Record<string, unknown>)[key]
    : undefined;
const envelopeOk = (answer: Answer): boolean => field(answer, 'result') === true;
const always = (): boolean => true;

interface OwnerSpec {
  /** The `:id` of A's the route addresses. */
  target?: (w: World, t: Target) => string;
  body?: (w: World, t: Target) => unknown;
  status: 200 | 201 | 204;
  shows?: (w: World) => string;
  /** On a route without an id, B's key gets B's own data: a marker of it. */
  ownData?: (w: World) => string;
  needs?: Need;
}

/** An owner route: the API key in the Authorization header, and nothing else. */
function owner(method: Method, path: string, spec: OwnerSpec): RouteCase {
  const { target, body } = spec;
  return {
    method,
    path: `/api/owner${path}`,
    kind: 'owner',
    takes: 'an API key, as Authorization: Bearer <key>',
    needs: spec.needs,
    succeeded: (answer) => answer.status === spec.status,
    shows: spec.shows,
    writes: method !== 'GET',
    aims: [
      {
        at: 'the Authorization header',
        opens: 'ownKey',
        own: target === undefined ? ['otherKey'] : [],
        ownData: spec.ownData,
        request: (w, t, secret) => ({
          method,
          path: `/api/owner${target === undefined ? path : path.replace(':id', target(w, t))}`,
          ...bearer(secret),
          ...(body === undefined ? {} : { body: body(w, t) }),
        }),
      },
    ],
  };
}

type TwinSpec = Omit<RouteCase, 'method' | 'path' | 'kind'>;

/** A visitor call answered under /api and without it (architecture §5.1): one row each. */
function twins(method: Method, path: string, kind: Kind, spec: (path: string) => TwinSpec): RouteCase[] {
  return VISITOR_PREFIXES.map((prefix) => ({
    method,
    path: `${prefix}${path}`,
    kind,
    ...spec(`${prefix}${path}`),
  }));
}

/** A route that reads no credential: any credential goes in the Authorization header, and changes nothing. */
function open(
  method: Method,
  path: string,
  takes: string,
  request: (w: World) => Omit<Req, 'authorization'>,
): RouteCase {
  return {
    method,
    path,
    kind: 'public',
    takes,
    succeeded: always,
    aims: [
      { at: 'the Authorization header', request: (w, _t, secret) => ({ ...request(w), ...bearer(secret) }) },
    ],
  };
}

/** A lead's page by the account's slug on a base domain, or by the account's own domain (visitor-behaviour §2.1). */
const SITE_AIMS = (
  path: string,
  body: (w: World, secret: string | undefined, custom: boolean) => Record<string, unknown>,
): Aim[] =>
  [false, true].map((custom) => ({
    at: custom ? `the lead token in the body, on A’s domain` : `the lead token in the body, with A’s slug`,
    opens: 'ownLead',
    request: (w, _t, secret) => ({ method: 'POST', path, body: body(w, secret, custom) }),
  }));

/** A call that takes only a lead token in its body; B's lead token does the same for B's lead. */
function leadCall(
  method: Method,
  path: string,
  extra: (t: Target) => Record<string, unknown> = () => ({}),
  own: Credential[] = ['otherLead'],
) {
  return twins(method, path, 'visitor', (full) => ({
    takes: 'a lead token in the body',
    succeeded: envelopeOk,
    writes: true,
    aims: [
      {
        at: 'the body’s token',
        opens: 'ownLead',
        own,
        request: (_w, t, secret) => ({ method, path: full, body: { ...extra(t), ...tokenField(secret) } }),
      },
    ],
  }));
}

/** A call about one of A's page sessions: the session's own lead token opens it, and no other. */
function sessionCall(method: Method, path: string, body: (t: Target) => Record<string, unknown>) {
  return twins(method, path, 'visitor', (full) => ({
    takes: 'a lead token in the body, for a page session of that lead',
    needs: 'session',
    succeeded: envelopeOk,
    writes: true,
    aims: [
      {
        at: 'the body’s token, A’s session',
        opens: 'ownLead',
        request: (_w, t, secret) => ({
          method,
          path: full.replace(':sessionId', made(t.session)),
          body: { ...body(t), ...tokenField(secret) },
        }),
      },
    ],
  }));
}

const ROUTES: RouteCase[] = [
  // The owner API (as in tenant-isolation.test.ts).
  owner('GET', '/account', { status: 200, shows: (w) => w.a.account.id, ownData: (w) => w.b.account.id }),
  owner('PATCH', '/account', {
    body: () => ({ name: edited('Account') }),
    status: 200,
    shows: (w) => w.a.account.id,
    ownData: (w) => w.b.account.id,
  }),
  owner('GET', '/api-keys', {
    status: 200,
    shows: (w) => w.a.key.slice(0, 8),
    ownData: (w) => w.b.key.slice(0, 8),
  }),
  owner('POST', '/api-keys', { body: () => ({ label: 'Made by the caller' }), status: 201 }),
  owner('DELETE', '/api-keys/:id', { target: (_w, t) => made(t.spare), needs: 'spareApiKey', status: 204 }),
  owner('GET', '/funnels', { status: 200, shows: () => A_FUNNEL_NAME, ownData: (w) => w.b.funnel }),
  owner('POST', '/funnels', { body: () => ({ name: 'Made by the caller' }), status: 201 }),
  owner('GET', '/funnel-templates', { status: 200 }),
  owner('POST', '/funnels/from-template', {
    body: () => ({ template: 'whatsapp-landing', name: 'Made from a template' }),
    status: 201,
  }),
  owner('POST', '/funnels/:id/duplicate', {
    target: (w) => w.a.funnel,
    body: () => ({}),
    status: 201,
    shows: () => A_FUNNEL_NAME,
  }),
  owner('GET', '/funnels/:id', { target: (w) => w.a.funnel, status: 200, shows: () => A_FUNNEL_NAME }),
  owner('PATCH', '/funnels/:id', {
    target: (w) => w.a.funnel,
    body: () => ({ name: edited(A_FUNNEL_NAME) }),
    status: 200,
    shows: () => A_FUNNEL_NAME,
  }),
  owner('DELETE', '/funnels/:id', { target: (_w, t) => made(t.spare), needs: 'spareFunnel', status: 204 }),
  owner('GET', '/funnels/:id/pages', { target: (w) => w.a.funnel, status: 200, shows: () => A_HEADLINE }),
  owner('POST', '/funnels/:id/pages', {
    target: (w) => w.a.funnel,
    body: () => ({ headline: `${A_HEADLINE} added` }),
    status: 201,
  }),
  owner('PUT', '/funnels/:id/pages/order', {
    target: (w) => w.a.funnel,
    needs: 'pageOrder',
    body: (_w, t) => ({ pageIds: t.pageOrder }),
    status: 200,
    shows: () => A_HEADLINE,
  }),
  owner('GET', '/pages/:id', { target: (w) => made(w.a.pages[0]), status: 200, shows: () => A_HEADLINE }),
  owner('POST', '/pages/:id/duplicate', {
    target: (w) => made(w.a.pages[0]),
    status: 201,
    shows: () => A_HEADLINE,
  }),
  owner('PATCH', '/pages/:id', {
    target: (w) => made(w.a.pages[0]),
    body: () => ({ headline: edited(A_HEADLINE) }),
    status: 200,
    shows: () => A_HEADLINE,
  }),
  owner('DELETE', '/pages/:id', { target: (_w, t) => made(t.spare), needs: 'sparePage', status: 204 }),
  owner('POST', '/pages/:id/preview', {
    target: (w) => made(w.a.pages[0]),
    body: () => ({ ttlMinutes: 60 }),
    status: 201,
  }),
  owner('GET', '/funnels/:id/leads', { target: (w) => w.a.funnel, status: 200, shows: () => A_EMAIL }),
  owner('POST', '/funnels/:id/leads', {
    target: (w) => w.a.funnel,
    body: () => ({ name: 'Added lead' }),
    status: 201,
  }),
  owner('POST', '/funnels/:id/leads/import', {
    target: (w) => w.a.funnel,
    body: () => ({ leads: [{ name: 'Imported one' }, { name: 'Imported two' }] }),
    status: 201,
  }),
  owner('GET', '/leads/:id', { target: (w) => w.a.lead.id, status: 200, shows: () => A_EMAIL }),
  owner('PATCH', '/leads/:id', {
    target: (w) => w.a.lead.id,
    body: () => ({ name: edited(`Alphalead ${A_SURNAME}`) }),
    status: 200,
    shows: () => A_EMAIL,
  }),
  owner('POST', '/leads/:id/link', { target: (_w, t) => t.lead.id, status: 201 }),
  owner('DELETE', '/leads/:id', { target: (_w, t) => t.lead.id, status: 204 }),
  // Analytics (issue 19): an account's own pages, funnels and leads only.
  owner('GET', '/pages/:id/analytics', { target: (w) => made(w.a.pages[0]), status: 200 }),
  owner('GET', '/funnels/:id/analytics', { target: (w) => w.a.funnel, status: 200 }),
  owner('GET', '/funnels/:id/follow-ups', { target: (w) => w.a.funnel, status: 200 }),
  owner('GET', '/leads/:id/timeline', { target: (w) => w.a.lead.id, status: 200 }),
  owner('GET', '/domains', { status: 200, shows: () => A_HOST, ownData: () => B_HOST }),
  owner('POST', '/domains', { body: () => ({ host: `caller-${++edits}.example.com` }), status: 201 }),
  owner('DELETE', '/domains/:id', { target: (_w, t) => made(t.spare), needs: 'spareDomain', status: 204 }),
  owner('POST', '/domains/:id/verify', {
    target: (_w, t) => made(t.spare),
    needs: 'spareDomain',
    status: 200,
  }),
  // The Studio's members and invitations (issue 18): an account's own.
  owner('GET', '/members', { status: 200 }),
  owner('PATCH', '/members/:id', {
    target: (_w, t) => made(t.spare),
    needs: 'spareMember',
    body: () => ({ role: 'viewer' }),
    status: 200,
  }),
  owner('DELETE', '/members/:id', { target: (_w, t) => made(t.spare), needs: 'spareMember', status: 204 }),
  owner('GET', '/invitations', { status: 200 }),
  owner('POST', '/invitations', { body: () => ({ role: 'viewer' }), status: 201 }),
  owner('DELETE', '/invitations/:id', {
    target: (_w, t) => made(t.spare),
    needs: 'spareInvitation',
    status: 204,
  }),

  // Page resolution (visitor-behaviour §7 Site, Landing data, Preview).
  ...twins('POST', '/funnel/site', 'visitor', (path) => ({
    takes: 'a lead token in the body, with the account’s slug or on its domain',
    succeeded: envelopeOk,
    shows: () => A_HEADLINE,
    writes: false,
    aims: SITE_AIMS(path, (w, secret, custom) => ({
      ...(custom
        ? { domain: `https://${A_HOST}`, slug: null, type: 'CUSTOM' }
        : { domain: w.url, slug: A_SLUG, type: 'BASE' }),
      origin: 'SITE-REQUEST',
      ...tokenField(secret),
    })),
  })),
  ...twins('POST', '/funnel/landing', 'visitor', (path) => ({
    takes: 'a lead token in the body’s userToken, with the account’s slug or on its domain',
    succeeded: (answer) => field(answer, 'message') === 'PAGE_FOUNDED',
    shows: () => A_HEADLINE,
    writes: false,
    aims: SITE_AIMS(path, (w, secret, custom) => ({
      ...(custom
        ? { userDomain: `https://${A_HOST}`, userSlug: null, type: 'CUSTOM' }
        : { userDomain: w.url, userSlug: A_SLUG, type: 'BASE' }),
      ...(secret === undefined ? {} : { userToken: secret }),
    })),
  })),
  ...twins('POST', '/funnel/site/preview', 'visitor', (path) => ({
    takes: 'a preview token in the body (visitor-behaviour §3 preview request)',
    succeeded: envelopeOk,
    shows: () => A_HEADLINE,
    writes: false,
    aims: [
      {
        // A base domain is shared: B's preview token opens B's page there, which is B's own.
        at: 'the body’s token, on a base domain',
        opens: 'ownPreview',
        own: ['otherPreview'],
        ownData: () => B_HEADLINE,
        request: (w, _t, secret) => ({
          method: 'POST',
          path,
          body: { domain: w.url, ...tokenField(secret) },
        }),
      },
      {
        at: 'the body’s token, on A’s domain',
        opens: 'ownPreview',
        request: (_w, _t, secret) => ({
          method: 'POST',
          path,
          body: { domain: `https://${A_HOST}`, ...tokenField(secret) },
        }),
      },
    ],
  })),

  // Progress and conversions (visitor-behaviour §7 Video viewed, Offer button event, Prelaunch conversion, Lead IP).
  ...leadCall('PUT', '/funnel/site/complete'),
  // Taken only where the lead's page is an offer, and in a funnel in pre-launch (issue 16, item 7): A's
  // funnel is both, B's neither, so B's own lead is refused there too.
  ...leadCall('POST', '/funnel/track/event/offert', undefined, []),
  ...leadCall('POST', '/lead/internal/conversion/prelaunch', undefined, []),
  ...twins('POST', '/funnel/lead/ip', 'visitor', (path) => ({
    takes: 'a lead token in the body',
    succeeded: (answer) => field(answer, 'success') === true,
    writes: true,
    aims: [
      {
        at: 'the body’s token',
        opens: 'ownLead',
        own: ['otherLead'],
        request: (_w, _t, secret) => ({
          method: 'POST',
          path,
          body: { ip: '198.51.100.23', ...tokenField(secret) },
        }),
      },
    ],
  })),

  // Tracking (visitor-behaviour §7 page sessions, actions, video).
  ...leadCall('POST', '/funnel/track/page', () => ({ details: sessionDetails(), start: Date.now() })),
  ...sessionCall('PUT', '/funnel/track/page/:sessionId', () => ({
    endReason: 'PAGE_CLOSE',
    end: Date.now(),
  })),
  ...sessionCall('POST', '/funnel/track/action', (t) => ({
    idTrackingPageSession: made(t.session),
    action: 'BUTTON_CLICK',
    timestamp: Date.now(),
  })),
  ...sessionCall('POST', '/funnel/track/video', (t) => ({
    idTrackingPageSession: made(t.session),
    startViewTime: Date.now() - 5000,
    endViewTime: Date.now(),
    startTimeVideo: 0,
    endTimeVideo: 5,
    details: { state: 'PROGRESS' },
  })),

  // Visitor calls that take no credential.
  ...twins('POST', '/funnel/fomo', 'public', (path) => ({
    takes:
      'nothing: the funnel’s id (visitor-behaviour §7 FOMO); it shows the popups A turned on, with first names only',
    succeeded: always,
    shows: () => A_FOMO_NAME,
    aims: [
      {
        at: 'the Authorization header',
        request: (w, _t, secret) => ({
          method: 'POST',
          path,
          ...bearer(secret),
          body: { idFunnel: w.a.funnel, site: 'VIDEO', location: {} },
        }),
      },
    ],
  })),
  ...twins('POST', '/funnel/track/pixel', 'visitor', (path) => ({
    takes:
      'a lead token in the body, of the funnel the body names (visitor-behaviour §7 Pixel; issue 16, item 2): B’s lead ' +
      'token with A’s funnel is an unknown token',
    succeeded: (answer) => field(answer, 'success') === true,
    writes: true,
    aims: [
      {
        at: 'the body’s token, with A’s funnel',
        opens: 'ownLead',
        request: (w, _t, secret) => ({
          method: 'POST',
          path,
          body: { idFunnel: w.a.funnel, ...tokenField(secret), eventData: { eventName: 'Lead' } },
        }),
      },
    ],
  })),
  ...twins('GET', '/geo', 'public', (path) => ({
    takes: 'nothing: the caller’s own address only',
    succeeded: always,
    aims: [
      {
        at: 'the Authorization header',
        request: (_w, _t, secret) => ({ method: 'GET', path, ...bearer(secret) }),
      },
    ],
  })),
  open('POST', '/api/csp-report', 'nothing: browsers’ policy-violation reports, only logged', () => ({
    method: 'POST',
    path: '/api/csp-report',
    body: {
      'csp-report': { 'effective-directive': 'script-src', 'blocked-uri': 'https://cdn.example/x.js' },
    },
  })),

  // The visitor page (visitor-behaviour §2): a lead token in the address, or ?previewToken=.
  {
    method: 'GET',
    path: '/*',
    kind: 'visitor',
    takes: 'a lead token in the address (/slug/token, or /token on a custom domain), or ?previewToken=',
    succeeded: (answer) => answer.status === 200,
    shows: () => A_HEADLINE,
    writes: false,
    aims: [
      {
        at: 'the address, with A’s slug',
        opens: 'ownLead',
        request: (_w, _t, secret) => ({
          method: 'GET',
          path: `/${A_SLUG}${secret === undefined ? '' : `/${encodeURIComponent(secret)}`}`,
        }),
      },
      {
        at: 'the address, on A’s domain',
        opens: 'ownLead',
        request: (_w, _t, secret) => ({
          method: 'GET',
          host: A_HOST,
          path: `/${secret === undefined ? '' : encodeURIComponent(secret)}`,
        }),
      },
      {
        // B's preview at an address that names A is refused: B's page never shows under A's name.
        at: '?previewToken=, with A’s slug on a base domain',
        opens: 'ownPreview',
        request: (_w, _t, secret) => ({ method: 'GET', path: `/${A_SLUG}${previewQuery(secret)}` }),
      },
      {
        at: '?previewToken=, on A’s domain',
        opens: 'ownPreview',
        request: (_w, _t, secret) => ({ method: 'GET', host: A_HOST, path: `/${previewQuery(secret)}` }),
      },
    ],
  },

  // The Studio's sign-in (decision 21): a session cookie, never a key; a write without the Studio's
  // Origin is refused before anything is read.
  ...(
    [
      ['GET', '/api/auth/setup', '/api/auth/setup'],
      ['POST', '/api/auth/setup', '/api/auth/setup'],
      ['POST', '/api/auth/sign-in', '/api/auth/sign-in'],
      ['POST', '/api/auth/sign-out', '/api/auth/sign-out'],
      ['GET', '/api/auth/session', '/api/auth/session'],
      ['PUT', '/api/auth/session/account', '/api/auth/session/account'],
      ['PATCH', '/api/auth/profile', '/api/auth/profile'],
      ['PUT', '/api/auth/password', '/api/auth/password'],
      ['GET', '/api/auth/invitations/:token', '/api/auth/invitations/not-an-invitation-token-at-all'],
      [
        'POST',
        '/api/auth/invitations/:token/accept',
        '/api/auth/invitations/not-an-invitation-token-at-all/accept',
      ],
    ] as const
  ).map(([method, route, path]) =>
    open(method, route, 'a Studio session cookie (or none yet), never a key', () => ({ method, path })),
  ),

  // Operator and static routes: no credential, no account data.
  open('GET', '/api/health', 'nothing: the load balancer’s probe', () => ({
    method: 'GET',
    path: '/api/health',
  })),
  open(
    'GET',
    '/internal/tls/ask',
    'nothing: Caddy’s on-demand TLS ask, answers only whether a host is served',
    () => ({
      method: 'GET',
      path: `/internal/tls/ask?domain=${A_HOST}`,
    }),
  ),
  ...(
    [
      ['/api/docs', '/api/docs'],
      ['/api/docs/', '/api/docs/'],
      ['/api/docs/json', '/api/docs/json'],
      ['/api/docs/yaml', '/api/docs/yaml'],
      ['/api/docs/static/index.html', '/api/docs/static/index.html'],
      ['/api/docs/static/swagger-initializer.js', '/api/docs/static/swagger-initializer.js'],
      ['/api/docs/static/*', '/api/docs/static/swagger-ui.css'],
    ] as const
  ).map(([route, path]) =>
    open('GET', route, 'nothing: the OpenAPI document and its viewer', () => ({ method: 'GET', path })),
  ),
  open('GET', '/assets/*', 'nothing: static files', () => ({
    method: 'GET',
    path: '/assets/demo/poster.jpg',
  })),
  open('GET', '/assets/flags/*', 'nothing: static files', () => ({
    method: 'GET',
    path: '/assets/flags/mx.svg',
  })),
  open('GET', '/favicon.ico', 'nothing: the server’s own icon, the same for every account', () => ({
    method: 'GET',
    path: '/favicon.ico',
  })),
  open('GET', '/static/*', 'nothing: the visitor app’s bundle', () => ({
    method: 'GET',
    path: loadViteApp('web').entryScript ?? '/static/not-built.js',
  })),
  open('GET', '/static/studio/*', 'nothing: the Studio’s bundle (decision 0023)', () => ({
    method: 'GET',
    path: loadViteApp('studio').entryScript ?? '/static/studio/not-built.js',
  })),
  ...(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'QUERY'] as const).map((method) =>
    open(method, '/api/*', 'nothing: an unknown /api path is a JSON 404', (w) => ({
      method,
      path: `/api/not-a-route/${w.a.funnel}`,
    })),
  ),
];

function previewQuery(secret: string | undefined): string {
  return secret === undefined ? '' : `?previewToken=${encodeURIComponent(secret)}`;
}

const routeName = (route: Pick<RouteCase, 'method' | 'path'>): string => `${route.method} ${route.path}`;

const CELLS = ROUTES.flatMap((route) =>
  CREDENTIALS.map((credential) => ({
    name: `${routeName(route)} · ${CREDENTIAL_NAMES[credential]}`,
    route,
    credential,
  })),
);

type Outcome = 'opens' | 'own' | 'refused' | 'public';

function outcomeOf(route: RouteCase, aim: Aim, credential: Credential): Outcome {
  if (route.kind === 'public') return 'public';
  if (aim.opens === credential) return 'opens';
  if (aim.own?.includes(credential)) return 'own';
  return 'refused';
}

// ---------------------------------------------------------------------------------------------------
// Reading the server: its routes, its answers, A's rows.

/**
 * "METHOD /path" of every route Fastify holds, read from its route tree (HEAD is implied by GET). The
 * tree with common prefixes is used: without them, Fastify's print leaves wildcard routes out.
 */
function registeredRoutes(server: FastifyInstance): string[] {
  const segments: string[] = [];
  const routes: string[] = [];
  for (const line of server.printRoutes().split('\n')) {
    const node = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!node) continue;
    const [, indent = '', segment = '', methods = ''] = node;
    segments.length = indent.length / 4;
    segments.push(segment);
    for (const method of methods.split(',').map((m) => m.trim()))
      if (method !== '' && method !== 'HEAD') routes.push(`${method} ${segments.join('')}`);
  }
  return routes;
}

/** fetch can neither send another Host nor TRACE: those go through node:http. */
function rawRequest(url: string, req: Req): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        hostname,
        port,
        method: req.method,
        path: req.path,
        headers: {
          ...(req.host === undefined ? {} : { host: req.host }),
          ...(req.authorization === undefined ? {} : { authorization: req.authorization }),
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(incoming.headers))
            if (typeof value === 'string') headers.set(name, value);
          let body: unknown = undefined;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: incoming.statusCode ?? 0, body, text, headers });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function send(server: TestServer, req: Req): Promise<Answer> {
  if (req.host !== undefined || req.method === 'TRACE') {
    if (req.body !== undefined) throw new Error('raw requests carry no body');
    return rawRequest(server.url, req);
  }
  return api(server, req.method, req.path, {
    headers: req.authorization === undefined ? {} : { authorization: req.authorization },
    ...(req.body === undefined ? {} : { body: req.body }),
  });
}

type RowsOf = Record<Table, () => Promise<object[]>>;

/**
 * Every row that is A's or points at something of A's, table by table. A table added to the schema
 * and to TABLES fails to compile here until it says which of its rows are A's.
 */
function rowsOfAccount(db: Db, accountId: string): RowsOf {
  const funnels = db.selectFrom('funnels').select('id').where('accountId', '=', accountId);
  const leads = db.selectFrom('leads').select('id').where('accountId', '=', accountId);
  const pages = db.selectFrom('pages').select('id').where('funnelId', 'in', funnels);
  const sessions = db
    .selectFrom('pageSessions')
    .select('id')
    .where((eb) => eb.or([eb('leadId', 'in', leads), eb('funnelId', 'in', funnels)]));
  return {
    // Not an account's, and no call may change it.
    instanceSettings: () => db.selectFrom('instanceSettings').selectAll().execute(),
    accounts: () => db.selectFrom('accounts').selectAll().where('id', '=', accountId).execute(),
    // lastUsedAt moves when A's key is used, which only A does.
    apiKeys: () =>
      db
        .selectFrom('apiKeys')
        .select(['id', 'accountId', 'keyHash', 'label', 'createdAt'])
        .where('accountId', '=', accountId)
        .execute(),
    domains: () => db.selectFrom('domains').selectAll().where('accountId', '=', accountId).execute(),
    funnels: () => db.selectFrom('funnels').selectAll().where('accountId', '=', accountId).execute(),
    contentVersions: () =>
      db.selectFrom('contentVersions').selectAll().where('funnelId', 'in', funnels).execute(),
    pages: () => db.selectFrom('pages').selectAll().where('funnelId', 'in', funnels).execute(),
    leads: () =>
      db
        .selectFrom('leads')
        .selectAll()
        .where((eb) => eb.or([eb('accountId', '=', accountId), eb('funnelId', 'in', funnels)]))
        .execute(),
    funnelLeadCounts: () =>
      db.selectFrom('funnelLeadCounts').selectAll().where('funnelId', 'in', funnels).execute(),
    leadSearchTerms: () =>
      db
        .selectFrom('leadSearchTerms')
        .selectAll()
        .where((eb) => eb.or([eb('leadId', 'in', leads), eb('funnelId', 'in', funnels)]))
        .execute(),
    leadPageProgress: () =>
      db
        .selectFrom('leadPageProgress')
        .selectAll()
        .where((eb) => eb.or([eb('leadId', 'in', leads), eb('pageId', 'in', pages)]))
        .execute(),
    previewTokens: () =>
      db
        .selectFrom('previewTokens')
        .selectAll()
        .where((eb) =>
          eb.or([eb('accountId', '=', accountId), eb('funnelId', 'in', funnels), eb('pageId', 'in', pages)]),
        )
        .execute(),
    visits: () =>
      db
        .selectFrom('visits')
        .selectAll()
        .where((eb) => eb.or([eb('leadId', 'in', leads), eb('funnelId', 'in', funnels)]))
        .execute(),
    pageSessions: () =>
      db
        .selectFrom('pageSessions')
        .selectAll()
        .where((eb) => eb.or([eb('leadId', 'in', leads), eb('funnelId', 'in', funnels)]))
        .execute(),
    videoRecords: () =>
      db
        .selectFrom('videoRecords')
        .selectAll()
        .where((eb) => eb.or([eb('leadId', 'in', leads), eb('pageSessionId', 'in', sessions)]))
        .execute(),
    actions: () =>
      db
        .selectFrom('actions')
        .selectAll()
        .where((eb) => eb.or([eb('leadId', 'in', leads), eb('pageSessionId', 'in', sessions)]))
        .execute(),
    conversions: () =>
      db
        .selectFrom('conversions')
        .selectAll()
        .where((eb) =>
          eb.or([eb('accountId', '=', accountId), eb('leadId', 'in', leads), eb('funnelId', 'in', funnels)]),
        )
        .execute(),
    pixelOutbox: () =>
      db
        .selectFrom('pixelOutbox')
        .selectAll()
        .where((eb) => eb.or([eb('accountId', '=', accountId), eb('funnelId', 'in', funnels)]))
        .execute(),
    // The Studio's people (migration 0008): A's members, their sessions in A, A's invitations.
    users: () =>
      db
        .selectFrom('users')
        .selectAll()
        .where('id', 'in', db.selectFrom('memberships').select('userId').where('accountId', '=', accountId))
        .execute(),
    memberships: () => db.selectFrom('memberships').selectAll().where('accountId', '=', accountId).execute(),
    sessions: () => db.selectFrom('sessions').selectAll().where('currentAccountId', '=', accountId).execute(),
    invitations: () => db.selectFrom('invitations').selectAll().where('accountId', '=', accountId).execute(),
    // Analytics rollups (migration 0010): A's pages', funnels' and leads' rows.
    analyticsSessions: () =>
      db
        .selectFrom('analyticsSessions')
        .selectAll()
        .where((eb) => eb.or([eb('leadId', 'in', leads), eb('pageId', 'in', pages)]))
        .execute(),
    analyticsLeadPages: () =>
      db
        .selectFrom('analyticsLeadPages')
        .selectAll()
        .where((eb) => eb.or([eb('leadId', 'in', leads), eb('pageId', 'in', pages)]))
        .execute(),
    analyticsReach: () => db.selectFrom('analyticsReach').selectAll().where('pageId', 'in', pages).execute(),
    analyticsViews: () => db.selectFrom('analyticsViews').selectAll().where('pageId', 'in', pages).execute(),
    analyticsPageDays: () =>
      db.selectFrom('analyticsPageDays').selectAll().where('pageId', 'in', pages).execute(),
    analyticsPageLeads: () =>
      db.selectFrom('analyticsPageLeads').selectAll().where('pageId', 'in', pages).execute(),
    analyticsFurthest: () =>
      db.selectFrom('analyticsFurthest').selectAll().where('pageId', 'in', pages).execute(),
    analyticsSteps: () =>
      db.selectFrom('analyticsSteps').selectAll().where('funnelId', 'in', funnels).execute(),
    analyticsFunnelDays: () =>
      db.selectFrom('analyticsFunnelDays').selectAll().where('funnelId', 'in', funnels).execute(),
    analyticsPageMeta: () =>
      db.selectFrom('analyticsPageMeta').selectAll().where('pageId', 'in', pages).execute(),
    analyticsPageVersions: () =>
      db.selectFrom('analyticsPageVersions').selectAll().where('pageId', 'in', pages).execute(),
  };
}

function expectApiError(answer: Answer, status: number, code: string): void {
  expect(answer.status, answer.text).toBe(status);
  const parsed = ApiError.safeParse(answer.body);
  expect(parsed.success, answer.text).toBe(true);
  expect(parsed.data).toMatchObject({ statusCode: status, code });
}

// ---------------------------------------------------------------------------------------------------

describe.each(TEST_DIALECTS)('isolation matrix on %s', (dialect) => {
  let server: TestServer;
  let world: World;
  let cellsRun = 0;

  async function created<S extends z.ZodType>(
    schema: S,
    key: string,
    path: string,
    body: unknown,
  ): Promise<z.output<S>> {
    const answer = await api(server, 'POST', `/api/owner${path}`, { key, body });
    expect(answer.status, answer.text).toBe(201);
    return read(schema, answer);
  }

  async function newLead(
    owner: Pick<Tenant, 'key' | 'funnel'>,
    body: unknown,
  ): Promise<{ id: string; token: string }> {
    const { lead, token } = await created(LeadCreated, owner.key, `/funnels/${owner.funnel}/leads`, body);
    return { id: lead.id, token };
  }

  async function tenant(
    slug: string,
    settings: { contactEmail: string },
    funnel: Record<string, unknown>,
    headlines: string[],
    lead: Record<string, unknown>,
    host: string,
    firstPage: Record<string, unknown> = {},
  ): Promise<Tenant> {
    const { account, apiKey: key } = await server.services.accounts.create({ slug, name: slug, settings });
    const funnelId = (await created(Funnel, key, '/funnels', funnel)).id;
    const pages: string[] = [];
    for (const [index, headline] of headlines.entries()) {
      const offer = index === 0 ? firstPage : {};
      pages.push((await created(Page, key, `/funnels/${funnelId}/pages`, { headline, ...offer })).id);
    }
    const { token: previewToken } = await created(
      PreviewCreated,
      key,
      `/pages/${pages[0] ?? ''}/preview`,
      {},
    );
    const domain = await created(Domain, key, '/domains', { host });
    // Verified, so that the custom host serves (decision 27).
    await markDomainVerified(server.database.db, host);
    const leadMade = await newLead({ key, funnel: funnelId }, lead);
    return { account, key, funnel: funnelId, pages, lead: leadMade, previewToken, domain };
  }

  async function startSession(token: string): Promise<string> {
    const answer = await api(server, 'POST', '/api/funnel/track/page', {
      body: { token, details: sessionDetails(), start: Date.now() },
    });
    expect(answer.status, answer.text).toBe(200);
    const id = read(PageSessionStarted, answer).data?.idTrackingPageSession;
    if (id === undefined) throw new Error('the session started without an id');
    return id;
  }

  async function prepare(needs: Need | undefined): Promise<Target> {
    const a = world.a;
    const target: Target = { lead: await newLead(a, { name: `Freshlead ${A_SURNAME}` }) };
    switch (needs) {
      case undefined:
        break;
      case 'session':
        target.session = await startSession(target.lead.token);
        break;
      case 'spareFunnel':
        target.spare = (await created(Funnel, a.key, '/funnels', { name: 'Spare funnel' })).id;
        break;
      case 'sparePage':
        target.spare = (await created(Page, a.key, `/funnels/${a.funnel}/pages`, { headline: 'Spare' })).id;
        break;
      case 'spareDomain':
        target.spare = (await created(Domain, a.key, '/domains', { host: `spare-${++edits}.${A_HOST}` })).id;
        break;
      case 'spareMember': {
        const user = await server.services.users.create({
          email: `spare-${++edits}@alpha-mail.example`,
          name: 'Spare member',
          password: 'a spare member passphrase',
        });
        await server.services.members.add(user.id, a.account.id, 'editor');
        target.spare = user.id;
        break;
      }
      case 'spareInvitation':
        target.spare = (
          await created(InvitationCreated, a.key, '/invitations', { role: 'viewer' })
        ).invitation.id;
        break;
      case 'spareApiKey':
        target.spare = (await created(ApiKeyCreated, a.key, '/api-keys', { label: 'Spare key' })).apiKey.id;
        break;
      case 'pageOrder': {
        const listed = await api(server, 'GET', `/api/owner/funnels/${a.funnel}/pages`, { key: a.key });
        const ids = z
          .array(Page)
          .parse(listed.body)
          .map((page) => page.id);
        target.pageOrder = [...ids.slice(0, 1), ...ids.slice(-1), ...ids.slice(1, -1)];
        break;
      }
    }
    return target;
  }

  /** Every row of A's, each table's rows as sorted JSON. */
  async function rowsOfA(): Promise<Record<string, string[]>> {
    const tables = rowsOfAccount(server.database.db, world.a.account.id);
    const entries = await Promise.all(
      Object.entries(tables).map(async ([table, rows]) => {
        const texts = (await rows()).map((row) => JSON.stringify(row)).sort();
        return [table, texts] as const;
      }),
    );
    return Object.fromEntries(entries);
  }

  const without = (rows: Record<string, string[]>, tables: readonly Table[] = []) =>
    Object.fromEntries(
      Object.entries(rows).filter(([table]) => !(tables as readonly string[]).includes(table)),
    );

  /** A's identifiers, tokens, keys and content markers. */
  function markersOfA(t: Target): string[] {
    const { a } = world;
    return [
      a.account.id,
      a.key,
      a.previewToken,
      a.funnel,
      ...a.pages,
      a.lead.id,
      a.lead.token,
      a.domain.id,
      t.lead.id,
      t.lead.token,
      ...(t.session === undefined ? [] : [t.session]),
      ...(t.spare === undefined ? [] : [t.spare]),
      A_HOST,
      A_FUNNEL_NAME,
      A_HEADLINE,
      A_CONTACT,
      A_SURNAME,
      A_EMAIL,
      A_PHONE,
      A_PIXEL_TOKEN,
    ];
  }

  /** None of `markers` is in the answer, except those the request itself carried (an echo is no leak). */
  function expectNone(answer: Answer, req: Req, markers: readonly string[], where: string): void {
    const sent = JSON.stringify(req);
    for (const marker of markers)
      if (!sent.includes(marker))
        expect(answer.text, `${where}: ${marker} is in the answer`).not.toContain(marker);
  }

  beforeAll(async () => {
    // Each credential calls every route, several hundred requests a minute: the owner limit is off here
    // (owner-access.api.test.ts holds it).
    server = await startTestServer(dialect, { ...NO_RATE_LIMIT, OWNER_RATE_LIMIT_PER_MINUTE: '0' });
    const url = server.url;
    const a = await tenant(
      A_SLUG,
      { contactEmail: A_CONTACT },
      {
        name: A_FUNNEL_NAME,
        isFomoOn: true,
        fomo: {
          video: { fomoApplied: true },
          source: 'both',
          messages: [{ name: A_FOMO_NAME, location: 'Monterrey', countryCode: 'MX' }],
        },
        pixel: { pixelId: '1234567890', accessToken: A_PIXEL_TOKEN },
        // Where the pre-launch conversion is taken; and the first page, below, an offer (issue 16, item 7).
        isPreLaunch: true,
      },
      [1, 2, 3].map((n) => `${A_HEADLINE} ${n}`),
      { name: `Alphalead ${A_SURNAME}`, email: A_EMAIL, phone: A_PHONE },
      A_HOST,
      { buttonAction: 'OFFERT', buttonUrl: 'https://pay.example.com/alpha' },
    );
    const b = await tenant(
      'bravo',
      { contactEmail: 'contact@bravo-mail.example' },
      { name: 'BravoFunnelName' },
      [B_HEADLINE],
      { name: 'Bravolead' },
      B_HOST,
    );
    world = { url, a, b };
    // A real conversion of A's lead, so that A's popups show a first name (and must not show the rest).
    const viewed = await api(server, 'PUT', '/api/funnel/site/complete', { body: { token: a.lead.token } });
    expect(viewed.status, viewed.text).toBe(200);
  });

  afterAll(async () => {
    await server.close();
  });

  it('the table lists every route the server registers, each once', () => {
    const names = ROUTES.map(routeName);
    expect(new Set(names).size).toBe(names.length);
    expect([...new Set(registeredRoutes(server.server))].sort()).toEqual([...names].sort());
  });

  it.each(CELLS)('$name', async ({ route, credential }) => {
    const t = await prepare(route.needs);
    const secret = secretOf(credential, world, t);
    for (const aim of route.aims) {
      let req = aim.request(world, t, secret);
      // A key also goes where keys go, on every route: it must not open a visitor or public route.
      if (isKey(credential) && req.authorization === undefined) req = { ...req, ...bearer(secret) };
      const outcome = outcomeOf(route, aim, credential);
      const before = await rowsOfA();
      const answer = await send(server, req);
      const where = `takes ${route.takes}; sent in ${aim.at}, ${outcome}: ${answer.status} ${answer.text.slice(0, 300)}`;

      expect(answer.status, where).toBeLessThan(500);
      expectNone(answer, req, [A_PIXEL_TOKEN, world.a.key, world.b.key], where);

      switch (outcome) {
        case 'opens': {
          expect(route.succeeded(answer), where).toBe(true);
          if (route.shows) expect(answer.text, where).toContain(route.shows(world));
          const after = await rowsOfA();
          if (route.writes === true) expect(after, where).not.toEqual(before);
          else expect(after, where).toEqual(before);
          break;
        }
        case 'own': {
          expect(route.succeeded(answer), where).toBe(true);
          if (aim.ownData) expect(answer.text, where).toContain(aim.ownData(world));
          expectNone(answer, req, markersOfA(t), where);
          expect(await rowsOfA(), where).toEqual(before);
          break;
        }
        case 'refused': {
          expect(route.succeeded(answer), where).toBe(false);
          if (route.kind === 'owner') {
            if (credential === 'otherKey') expectApiError(answer, 404, ErrorCode.notFound);
            else expectApiError(answer, 401, ErrorCode.unauthorized);
          }
          expectNone(answer, req, markersOfA(t), where);
          expect(await rowsOfA(), where).toEqual(before);
          break;
        }
        case 'public': {
          const anonymous = await send(server, aim.request(world, t, undefined));
          expect({ status: answer.status, text: answer.text }, where).toEqual({
            status: anonymous.status,
            text: anonymous.text,
          });
          if (route.shows) expect(answer.text, where).toContain(route.shows(world));
          expectNone(answer, req, markersOfA(t), where);
          expect(without(await rowsOfA(), route.writesAnyway), where).toEqual(
            without(before, route.writesAnyway),
          );
          break;
        }
      }
    }
    cellsRun += 1;
  });

  it('ran every route × credential', () => {
    const byKind = (kind: Kind) => ROUTES.filter((route) => route.kind === kind).length;
    console.log(
      `isolation matrix on ${dialect}: ${ROUTES.length} routes (${byKind('owner')} owner, ` +
        `${byKind('visitor')} visitor, ${byKind('public')} without a credential) × ${CREDENTIALS.length} ` +
        `credentials = ${CELLS.length} cells; ${cellsRun} passed`,
    );
    expect(CELLS).toHaveLength(ROUTES.length * CREDENTIALS.length);
    expect(cellsRun).toBe(CELLS.length);
  });
});
