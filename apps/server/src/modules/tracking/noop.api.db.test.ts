import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowCounts } from '../../../test/fixtures';
import { startTestServer, type TestServer } from '../../../test/server';

/** `npm run bench`'s baseline endpoint: there only when asked for, and it stores nothing. */
describe('the no-op tracking endpoint', () => {
  let on: TestServer;
  let off: TestServer;
  beforeAll(async () => {
    on = await startTestServer('sqlite', { BENCH_NOOP_ENDPOINT: 'on' });
    off = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await Promise.all([on.close(), off.close()]);
  });

  const send = (server: TestServer, body: string) =>
    fetch(`${server.url}/api/funnel/track/noop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it('answers a tracking-shaped call like a stored one, and writes no row', async () => {
    const before = await rowCounts(on.database.db);
    const answer = await send(on, JSON.stringify({ token: 'any', idTrackingPageSession: 'x', details: {} }));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ codeResponse: 200, result: true, message: 'OK' });
    expect(await rowCounts(on.database.db)).toEqual(before);
  });

  it('refuses bad input as the real endpoints do', async () => {
    expect((await send(on, '{"token":')).status).toBe(400);
    expect((await send(on, JSON.stringify({ details: {} }))).status).toBe(400);
  });

  it('does not exist unless BENCH_NOOP_ENDPOINT=on', async () => {
    expect((await send(off, JSON.stringify({ token: 'any' }))).status).toBe(404);
  });
});
