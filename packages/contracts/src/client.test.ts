import { describe, expect, expectTypeOf, it } from 'vitest';
import { addressOf, callRoute, ROUTE_PATHS, type RouteAnswer, type RouteInput } from './client';
import type { Funnel, LeadList, SiteResponse, TrackAck } from './index';
import { ROUTES } from './routes/table';

/** A fetch that records what it was asked and answers `answer` as JSON. */
function recordingFetch(answer: unknown, status = 200) {
  const calls: { url: string; method: string; body: string | undefined }[] = [];
  const fetchStub: typeof fetch = (input, init) => {
    calls.push({
      url: input as string,
      method: init?.method ?? 'GET',
      body: init?.body as string | undefined,
    });
    return Promise.resolve(
      new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } }),
    );
  };
  return { calls, fetchStub };
}

describe('the typed client of the route table', () => {
  it('calls a route by its method and path, with its parameters filled in and its query', async () => {
    const { calls, fetchStub } = recordingFetch({ items: [], nextCursor: null });
    await callRoute(
      ROUTE_PATHS.leads.list,
      { params: { id: 'f/1' }, query: { limit: 10 } },
      { fetch: fetchStub, baseUrl: 'http://x.test' },
    );
    expect(calls).toEqual([
      { url: 'http://x.test/api/owner/funnels/f%2F1/leads?limit=10', method: 'GET', body: undefined },
    ]);
  });

  it('sends the body as JSON, and a route of ROUTES is called the same way', async () => {
    const { calls, fetchStub } = recordingFetch({ codeResponse: 200, result: true, message: 'OK' });
    await callRoute(ROUTES.conversions.offerEvent, { body: { token: 't' } }, { fetch: fetchStub });
    expect(calls).toEqual([{ url: '/api/funnel/track/event/offert', method: 'POST', body: '{"token":"t"}' }]);
  });

  it('calls a visitor route at the reading the spec writes', () => {
    expect(addressOf(ROUTE_PATHS.tracking.endSession, { params: { sessionId: 'a b' } })).toBe(
      '/funnel/track/page/a%20b',
    );
  });

  it('takes the z.input and answers the z.output of the table’s schemas', () => {
    type Leads = typeof ROUTES.leads.list;
    expectTypeOf<RouteInput<Leads>['params']>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<RouteAnswer<Leads>>().toEqualTypeOf<LeadList>();
    expectTypeOf<RouteAnswer<typeof ROUTES.funnels.create>>().toEqualTypeOf<Funnel>();
    expectTypeOf<RouteAnswer<typeof ROUTES.site.resolve>>().toEqualTypeOf<SiteResponse>();
    // Only the 2xx answers: a 403 or 404 throws.
    expectTypeOf<RouteAnswer<typeof ROUTES.tracking.action>>().toEqualTypeOf<TrackAck>();
    // A zod-free entry of ROUTE_PATHS is typed by the table's route at its method and path.
    expectTypeOf(callRoute<typeof ROUTE_PATHS.funnels.get>).returns.resolves.toEqualTypeOf<Funnel>();
    expectTypeOf(callRoute<typeof ROUTE_PATHS.funnels.get>)
      .parameter(1)
      .toEqualTypeOf<RouteInput<typeof ROUTES.funnels.get>>();
  });
});
