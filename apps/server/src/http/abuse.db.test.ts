import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/server';

/**
 * What a hostile or broken client meets before any route runs: headers too large, a request sent too
 * slowly to hold a socket, bytes that are not HTTP, and bodies over each visitor route's limit. Each
 * gets a 4xx in the API's error shape, and the server goes on serving.
 */
describe('abusive clients', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { REQUEST_TIMEOUT_MS: '1000', RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(async () => {
    await server.close();
  });

  interface RawAnswer {
    status: number;
    body: unknown;
    /** Whether the server closed the connection. */
    closed: boolean;
  }

  /**
   * Sends `first` on a raw connection, then each of `drip` 100 ms apart (a client too slow to finish),
   * and reads until the server closes the connection.
   */
  function raw(first: string, drip: string[] = []): Promise<RawAnswer> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      const chunks: Buffer[] = [];
      let timer: NodeJS.Timeout | undefined;
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
        const bodyText = text.slice(text.indexOf('\r\n\r\n') + 4);
        let body: unknown = null;
        try {
          body = JSON.parse(bodyText);
        } catch {
          reject(new Error(`not a JSON answer: ${JSON.stringify(text.slice(0, 300))}`));
          return;
        }
        resolve({ status, body, closed: true });
      });
      socket.write(first);
      const next = (i: number) => {
        if (i >= drip.length || socket.destroyed) return;
        timer = setTimeout(() => {
          if (!socket.destroyed) socket.write(drip[i] ?? '');
          next(i + 1);
        }, 100);
      };
      next(0);
    });
  }

  const healthy = async () => (await fetch(`${server.url}/api/health`)).status;

  it('answers headers larger than 16 KiB with 431 HEADERS_TOO_LARGE and closes the connection', async () => {
    const answer = await raw(
      `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatchObject({ status: 431, body: { statusCode: 431, code: 'HEADERS_TOO_LARGE' } });
    expect(await healthy()).toBe(200);
  });

  it('cuts a client that sends its headers too slowly with 408 REQUEST_TIMEOUT', async () => {
    // One header line every 100 ms for 15 s: the connection is never idle, the request never ends.
    const answer = await raw(
      'POST /api/funnel/site HTTP/1.1\r\nHost: localhost\r\n',
      Array.from({ length: 150 }, (_, i) => `X-Slow-${String(i)}: 1\r\n`),
    );
    expect(answer).toMatchObject({ status: 408, body: { statusCode: 408, code: 'REQUEST_TIMEOUT' } });
    expect(await healthy()).toBe(200);
  }, 30_000);

  it('cuts a client that sends its body too slowly with 408 REQUEST_TIMEOUT', async () => {
    const body = JSON.stringify({ domain: 'localhost', type: 'BASE', slug: 'demo', token: 'x'.repeat(32) });
    const answer = await raw(
      `POST /api/funnel/site HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${String(body.length)}\r\n\r\n`,
      // Half the body, a byte every 100 ms: the request never ends.
      body.slice(0, Math.floor(body.length / 2)).split(''),
    );
    expect(answer).toMatchObject({ status: 408, body: { statusCode: 408, code: 'REQUEST_TIMEOUT' } });
    expect(await healthy()).toBe(200);
  }, 30_000);

  it('answers bytes that are not HTTP with 400 MALFORMED_REQUEST', async () => {
    const answer = await raw('HELLO THERE\r\n\r\n');
    expect(answer).toMatchObject({ status: 400, body: { statusCode: 400, code: 'MALFORMED_REQUEST' } });
    expect(await healthy()).toBe(200);
  });

  it.each([
    ['POST', '/api/funnel/site', 8 * 1024],
    ['POST', '/api/funnel/site/preview', 8 * 1024],
    ['POST', '/api/funnel/landing', 8 * 1024],
    ['POST', '/api/funnel/fomo', 8 * 1024],
    ['PUT', '/api/funnel/site/complete', 4 * 1024],
    ['POST', '/api/funnel/track/event/offert', 4 * 1024],
    ['POST', '/api/funnel/track/video', 64 * 1024],
    ['POST', '/api/funnel/track/pixel', 16 * 1024],
  ])('%s %s refuses a body over %i bytes with 413 BODY_TOO_LARGE', async (method, path, limit) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'x'.repeat(32), padding: 'a'.repeat(limit) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ statusCode: 413, code: 'BODY_TOO_LARGE' });
  });
});
