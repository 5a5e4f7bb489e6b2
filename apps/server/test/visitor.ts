import {
  ApiError,
  LeadCreated,
  PageSessionStarted,
  SiteResponse,
  type SessionDetails,
  type StartReason,
} from '@embudo/contracts';
import { afterAll, beforeAll, expect } from 'vitest';
import { z } from 'zod';
import type { Dialect } from '../src/db/dialect';
import { seedDemo, type DemoFunnel, type DemoSummary } from '../src/modules/demo/demo.seed';
import { api, startTestServer, type TestServer } from './server';

/**
 * Helpers shared by the visitor API tests: a real server with the demo seeded, fresh leads made
 * through the owner API, and the calls a visitor's page makes (visitor-behaviour §7).
 */

/** visitor-behaviour §7 writes some calls with /api and some without; both readings answer (architecture §5.1). */
export const PREFIXES = ['/api', ''] as const;
export type Prefix = (typeof PREFIXES)[number];

/** Every visitor test turns the rate limit off, except the rate-limit test. */
export const NO_RATE_LIMIT: Record<string, string> = { RATE_LIMIT_PER_MINUTE: '0' };

export type Answer = Awaited<ReturnType<typeof api>>;

/** An error of a visitor route: ApiError plus the spec's envelope (visitor-behaviour §3, §5). */
export const VisitorError = ApiError.extend({
  codeResponse: z.number().int(),
  result: z.literal(false),
});
export type VisitorError = z.infer<typeof VisitorError>;

export interface VisitorHandle {
  readonly server: TestServer;
  readonly demo: DemoSummary;
  /** The demo's 3-page VSL funnel: NEXT-PAGE, NEXT-PAGE, OFFERT. */
  readonly vsl: DemoFunnel;
  /** The demo's one-page WhatsApp landing funnel (LPI-REDIRECT-WPP). */
  readonly whatsapp: DemoFunnel;
}

/**
 * A real server on a fresh database of the dialect with the demo seeded, started before the tests of
 * the enclosing describe block and closed after them. Read its fields inside tests and hooks only.
 */
export function useVisitorServer(
  dialect: Dialect,
  env: Record<string, string> = NO_RATE_LIMIT,
): VisitorHandle {
  let current: { server: TestServer; demo: DemoSummary } | undefined;
  beforeAll(async () => {
    const server = await startTestServer(dialect, env);
    try {
      current = { server, demo: await seedDemo(server.services, server.url) };
    } catch (error) {
      await server.close();
      throw error;
    }
  });
  afterAll(async () => {
    await current?.server.close();
    current = undefined;
  });
  const get = () => {
    if (!current) throw new Error('the test server runs only inside tests and hooks');
    return current;
  };
  const funnel = (name: string): DemoFunnel => {
    const found = get().demo.funnels.find((f) => f.name === name);
    if (!found) throw new Error(`the demo has no funnel ${name}`);
    return found;
  };
  return {
    get server() {
      return get().server;
    },
    get demo() {
      return get().demo;
    },
    get vsl() {
      return funnel('Lanzamiento VSL');
    },
    get whatsapp() {
      return funnel('WhatsApp landing');
    },
  };
}

/** The body of an answer read through its contract; fails the test when it does not fit. */
export function read<S extends z.ZodType>(schema: S, answer: Answer): z.output<S> {
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) {
    throw new Error(`the answer (${answer.status}) does not fit its contract: ${answer.text.slice(0, 500)}`);
  }
  return parsed.data;
}

/** Asserts a JSON error of a visitor route with this status and the envelope, and returns it. */
export function expectVisitorError(answer: Answer, status: number): VisitorError {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  const error = read(VisitorError, answer);
  expect(error).toMatchObject({ statusCode: status, codeResponse: status, result: false });
  return error;
}

/**
 * Asserts a visitor answer that refuses what was asked (unknown token, foreign session): this HTTP
 * status, JSON, and the envelope with codeResponse = status, result false and this message.
 */
export function expectRefusal(answer: Answer, status: number, message: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.body).toMatchObject({ codeResponse: status, result: false, message });
}

/** The page's n-th id (0-based) of a demo funnel. */
export function pageId(funnel: DemoFunnel, index: number): string {
  const page = funnel.pages[index];
  if (!page) throw new Error(`the funnel ${funnel.name} has no page ${index}`);
  return page.id;
}

/** The first preview token of a demo funnel, from its printed preview link. */
export function previewTokenOf(funnel: DemoFunnel): string {
  const token = new URL(funnel.previewUrl).searchParams.get('previewToken');
  if (!token) throw new Error(`the funnel ${funnel.name} has no preview link`);
  return token;
}

/** The demo lead of a funnel with this name (read-only use: tests that write make their own leads). */
export function demoLead(funnel: DemoFunnel, name: string): { name: string; token: string } {
  const lead = funnel.leads.find((l) => l.name === name);
  if (!lead) throw new Error(`the funnel ${funnel.name} has no lead ${name}`);
  return lead;
}

/** A new lead of a demo funnel, made through the owner API; it starts on the first page. */
export async function newLead(
  h: VisitorHandle,
  funnelId: string,
  name = 'Lead de prueba',
): Promise<{ id: string; token: string }> {
  const answer = await api(h.server, 'POST', `/api/owner/funnels/${funnelId}/leads`, {
    key: h.demo.apiKey,
    body: { name },
  });
  expect(answer.status, answer.text).toBe(201);
  const created = read(LeadCreated, answer);
  return { id: created.lead.id, token: created.token };
}

/** The site request payload of visitor-behaviour §3 for a lead of the demo account on the server's base domain. */
export function siteRequest(
  h: VisitorHandle,
  token: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    domain: h.server.url,
    slug: h.demo.accountSlug,
    token,
    type: 'BASE',
    origin: 'SITE-REQUEST',
    ip: '203.0.113.10',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Test',
    ...overrides,
  };
}

/** POST {prefix}/funnel/site for a demo lead, read as a SiteResponse (HTTP 200). */
export async function openSite(
  h: VisitorHandle,
  token: string,
  prefix: Prefix = '/api',
): Promise<SiteResponse> {
  const answer = await api(h.server, 'POST', `${prefix}/funnel/site`, { body: siteRequest(h, token) });
  expect(answer.status, answer.text).toBe(200);
  return read(SiteResponse, answer);
}

/** Device details as a browser sends them (visitor-behaviour §3 "tracking session payload"). */
export function sessionDetails(overrides: SessionDetails = {}): SessionDetails {
  return {
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Test',
    videoStatus: 'INCOMPLETED',
    browser: { name: 'Safari', version: '17.0', engine: 'WebKit' },
    os: { name: 'iOS', version: '17.0', architecture: 'arm64' },
    display: { screenWidth: 390, screenHeight: 844, viewportWidth: 390, viewportHeight: 700, zoom: 1 },
    capabilities: { touch: true, cookiesEnabled: true, localStorageAvailable: true },
    preferences: { mainLanguage: 'es-MX', languages: ['es-MX', 'es'], dateTimeFormat: 'es-MX' },
    network: { connectionType: 'wifi', effectiveType: '4g', downlink: 10, rtt: 50, saveData: false },
    referrer: '',
    sessionCount: 1,
    fingerprint: 'fp-test',
    privacySensitiveData: { deviceId: 'device_1700000000000_abc123', location: {} },
    ...overrides,
  };
}

/** POST {prefix}/funnel/track/page: starts a page session; answers as the server did. */
export function startSession(
  h: VisitorHandle,
  token: string,
  input: { eventId?: string; startReason?: StartReason; details?: SessionDetails; start?: number } = {},
  prefix: Prefix = '/api',
): Promise<Answer> {
  return api(h.server, 'POST', `${prefix}/funnel/track/page`, {
    body: { token, details: sessionDetails(), start: Date.now(), ...input },
  });
}

/** Starts a page session that must succeed, and returns its id. */
export async function startedSession(
  h: VisitorHandle,
  token: string,
  input: Parameters<typeof startSession>[2] = {},
): Promise<string> {
  const answer = await startSession(h, token, input);
  expect(answer.status, answer.text).toBe(200);
  const started = read(PageSessionStarted, answer);
  expect(started).toMatchObject({ codeResponse: 200, result: true, message: 'OK' });
  if (!started.data) throw new Error('the session started without an id');
  return started.data.idTrackingPageSession;
}

/** PUT {prefix}/funnel/site/complete: the lead watched the page's video. */
export function completePage(
  h: VisitorHandle,
  token: string,
  idPage?: string,
  prefix: Prefix = '/api',
): Promise<Answer> {
  return api(h.server, 'PUT', `${prefix}/funnel/site/complete`, {
    body: idPage === undefined ? { token } : { token, idPage },
  });
}

/** Completes the lead's pages one by one until it stands on the page of this index. */
export async function moveLeadTo(
  h: VisitorHandle,
  token: string,
  funnel: DemoFunnel,
  index: number,
): Promise<void> {
  for (let i = 0; i < index; i++) {
    const answer = await completePage(h, token, pageId(funnel, i));
    expect(answer.status, answer.text).toBe(200);
  }
  const site = await openSite(h, token);
  expect(site.data?.idPage).toBe(pageId(funnel, index));
}
