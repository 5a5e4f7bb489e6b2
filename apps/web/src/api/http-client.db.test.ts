import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './http-client';

/** A real local server standing in for the API: each path answers one way. */
let server: Server;
let base: string;
const seen: { method: string; contentType: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', contentType: req.headers['content-type'], body });
      if (req.url === '/json') {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"ok":true}');
      } else if (req.url === '/text') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('plain words');
      } else if (req.url === '/fail') {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('down for a moment');
      } else if (req.url !== '/hang') {
        res.writeHead(404).end();
      }
      // /hang never answers.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the visitor API client (visitor-behaviour §7, §8, §9)', () => {
  it('sends JSON with JSON headers and parses a JSON answer', async () => {
    expect(await request('POST', '/json', { a: 1 }, { baseUrl: base })).toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({ method: 'POST', contentType: 'application/json', body: '{"a":1}' });
    expect(await request('PUT', '/json', { b: 2 }, { baseUrl: base })).toEqual({ ok: true });
    expect(seen.at(-1)?.method).toBe('PUT');
  });

  it('returns text when the answer is not JSON', async () => {
    expect(await request('GET', '/text', undefined, { baseUrl: base })).toBe('plain words');
  });

  it("throws 'HTTP {status}: {body}' on a non-OK answer", async () => {
    await expect(request('GET', '/fail', undefined, { baseUrl: base })).rejects.toThrow(
      'HTTP 503: down for a moment',
    );
  });

  it("gives 'Request timeout' when the answer does not come in time", async () => {
    await expect(request('GET', '/hang', undefined, { baseUrl: base, timeoutMs: 150 })).rejects.toThrow(
      'Request timeout',
    );
  });
});
