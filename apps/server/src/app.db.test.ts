import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../test/databases';
import { api, startTestServer, type TestServer } from '../test/server';

describe.each(TEST_DIALECTS)('the server on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  it('publishes an OpenAPI document of the owner and visitor routes, and a page to browse it', async () => {
    const doc = (await api(server, 'GET', '/api/docs/json')).body as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/owner/funnels',
        '/api/owner/pages/{id}',
        '/api/owner/funnels/{id}/leads/import',
        '/api/funnel/site',
      ]),
    );
    const patchPage = doc.paths['/api/owner/pages/{id}']?.patch as {
      requestBody: { content: Record<string, { schema: { properties: object } }> };
    };
    expect(Object.keys(patchPage.requestBody.content['application/json']?.schema.properties ?? {})).toEqual(
      expect.arrayContaining([
        'headline',
        'headlineColor',
        'buttonTime',
        'buttonAction',
        'hostingVideo',
        'videoId',
        'videoUrl',
      ]),
    );
    const page = await fetch(`${server.url}/api/docs`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  });

  it('serves the demo video with range requests', async () => {
    const full = await fetch(`${server.url}/assets/demo/vsl.mp4`, { method: 'HEAD' });
    expect(full.status).toBe(200);
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    const size = Number(full.headers.get('content-length'));
    expect(size).toBeGreaterThan(10_000);
    const part = await fetch(`${server.url}/assets/demo/vsl.mp4`, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(1000);
  });

  it('answers an unknown API route with a JSON 404', async () => {
    const res = await api(server, 'GET', '/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('sends visitor pages with no-referrer, nosniff and no-store', async () => {
    const res = await fetch(`${server.url}/someone/some-token-that-is-long-enough`);
    expect(res.status).toBe(404);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('Hmmmm... No conozco a some-token-that-is-long-enough');
  });

  it('answers health with 200 while the database answers, and 503 once it does not', async () => {
    expect((await api(server, 'GET', '/api/health')).body).toEqual({ status: 'ok', database: dialect });
    const other = await startTestServer(dialect);
    await other.database.close();
    const res = await api(other, 'GET', '/api/health');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', database: dialect });
    await other.server.close();
  });
});
