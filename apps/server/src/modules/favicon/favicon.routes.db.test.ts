import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { api, startTestServer, type TestServer } from '../../../test/server';

/**
 * GET /favicon.ico, which every browser asks for on every visit: a small icon, never the visitor
 * page's not-found HTML, and never a database read or a count against the visitor rate limit.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface IcoImage {
  width: number;
  height: number;
  bytes: Buffer;
}

/** The images of an ICO file, read from its directory; throws on a broken container. */
function readIco(file: Buffer): IcoImage[] {
  expect([...file.subarray(0, 4)], 'ICONDIR: reserved 0, type 1 (icon)').toEqual([0, 0, 1, 0]);
  const count = file.readUInt16LE(4);
  const images: IcoImage[] = [];
  for (let i = 0; i < count; i++) {
    const entry = 6 + 16 * i;
    const size = file.readUInt32LE(entry + 8);
    const offset = file.readUInt32LE(entry + 12);
    expect(offset + size, `image ${i} lies inside the file`).toBeLessThanOrEqual(file.length);
    images.push({
      width: file.readUInt8(entry) || 256,
      height: file.readUInt8(entry + 1) || 256,
      bytes: file.subarray(offset, offset + size),
    });
  }
  return images;
}

async function fetchIcon(server: TestServer, method: 'GET' | 'HEAD' = 'GET') {
  const response = await fetch(`${server.url}/favicon.ico`, { method });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

describe.each(TEST_DIALECTS)('the favicon on %s', (dialect) => {
  describe('answered', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect);
    });
    afterAll(async () => {
      await server.close();
    });

    it('GET /favicon.ico answers a small ICO file of 16, 32 and 48 px PNG images, cached for a day', async () => {
      const { response, body } = await fetchIcon(server);
      expect(response.status, body.toString('utf8', 0, 200)).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/x-icon');
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(body.length).toBeGreaterThan(100);
      expect(body.length).toBeLessThan(4096);
      const images = readIco(body);
      expect(images.map(({ width, height }) => `${width}x${height}`)).toEqual(['16x16', '32x32', '48x48']);
      for (const image of images) expect(image.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    });

    it('HEAD /favicon.ico answers the same headers and no body', async () => {
      const get = await fetchIcon(server);
      const { response, body } = await fetchIcon(server, 'HEAD');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/x-icon');
      expect(response.headers.get('content-length')).toBe(String(get.body.length));
      expect(body.length).toBe(0);
    });
  });

  describe('with a visitor rate limit of 2 a minute', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect, { RATE_LIMIT_PER_MINUTE: '2' });
    });
    afterAll(async () => {
      await server.close();
    });

    it('is not counted: five icons, then a visitor page is still answered', async () => {
      for (let i = 0; i < 5; i++) expect((await fetchIcon(server)).response.status).toBe(200);
      const page = await api(server, 'GET', '/demo/no-such-lead-token');
      expect(page.status, page.text.slice(0, 200)).toBe(404);
    });
  });

  describe('with its database closed', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect);
      await server.database.close();
    });
    afterAll(async () => {
      await server.server.close();
    });

    it('still answers the icon: it reads nothing from the database', async () => {
      const { response } = await fetchIcon(server);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/x-icon');
    });
  });
});
