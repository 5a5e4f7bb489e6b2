import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, useServices } from '../../../test/fixtures';
import { ServerEvent } from './meta-capi';
import { createPixelRepo } from './pixel.repo';
import { pixelRoutes } from './pixel.routes';
import { createFunnelRepo } from '../funnels/funnel.repo';
import { createPixelService } from './pixel.service';

const PIXEL = { pixelId: '1234567890', accessToken: 'EAAB-access-token-1', testEventCode: null };

describe.each(TEST_DIALECTS)('pixel routes on %s', (dialect) => {
  const t = useServices(dialect);
  let app: FastifyInstance | undefined;
  let base = '';

  beforeAll(async () => {
    const pixel = createPixelService({
      pixels: createPixelRepo(t.db, dialect),
      funnels: createFunnelRepo(t.db),
      leads: t.services.progress,
    });
    const server = Fastify();
    server.setValidatorCompiler(validatorCompiler);
    server.setSerializerCompiler(serializerCompiler);
    await server.register(pixelRoutes, { pixel });
    await server.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    app = server;
  });
  afterAll(async () => {
    await app?.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers on /api/funnel/track/pixel and /funnel/track/pixel and stores each event', async () => {
    const owner = await newAccount(t.services);
    const { funnel } = await newFunnel(t.services, owner, { funnel: { name: 'Routes', pixel: PIXEL } });
    const { token } = await t.services.leads.create(owner, funnel.id, { name: 'Rosa' });
    for (const [path, eventId] of [
      ['/api/funnel/track/pixel', 'route-event-api'],
      ['/funnel/track/pixel', 'route-event-bare'],
    ] as const) {
      const response = await post(
        path,
        { idFunnel: funnel.id, token, eventData: { eventId, eventSource: 'https://acme.example.com/' } },
        { 'user-agent': 'RouteTest/1.0' },
      );
      expect(response.status, path).toBe(200);
      expect(await response.json()).toEqual({ success: true });
      const row = await createPixelRepo(t.db, dialect).findByEventId(eventId);
      expect(row?.funnelId).toBe(funnel.id);
      const event = ServerEvent.parse(JSON.parse(row?.payload ?? ''));
      expect(event).toMatchObject({
        event_name: 'Lead',
        event_id: eventId,
        user_data: { client_ip_address: '127.0.0.1', client_user_agent: 'RouteTest/1.0' },
      });
    }
  });

  it('answers PIXEL_NOT_CONFIGURED for a funnel without a pixel', async () => {
    const owner = await newAccount(t.services);
    const { funnel } = await newFunnel(t.services, owner);
    const { token } = await t.services.leads.create(owner, funnel.id, { name: 'Rosa' });
    const response = await post('/api/funnel/track/pixel', { idFunnel: funnel.id, token, eventData: {} });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: false, message: 'PIXEL_NOT_CONFIGURED' });
  });

  it('answers 404 in the visitor envelope for a token that names no lead of the funnel', async () => {
    const owner = await newAccount(t.services);
    const { funnel } = await newFunnel(t.services, owner, { funnel: { name: 'Routes', pixel: PIXEL } });
    const { funnel: other } = await newFunnel(t.services, owner, { funnel: { name: 'Other', pixel: PIXEL } });
    const { token } = await t.services.leads.create(owner, other.id, { name: 'Rosa' });
    for (const path of ['/api/funnel/track/pixel', '/funnel/track/pixel']) {
      const response = await post(path, { idFunnel: funnel.id, token, eventData: {} });
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({
        codeResponse: 404,
        result: false,
        message: 'DONT_EXIST_TOKEN_OR_URL',
      });
    }
  });

  it.each([
    ['no body fields', {}],
    ['no eventData', { idFunnel: 'x', token: 'x' }],
    ['no token', { idFunnel: 'x', eventData: {} }],
    ['an event the pages never send', { idFunnel: 'x', token: 'x', eventData: { eventName: 'Purchase' } }],
    ['a malformed event id', { idFunnel: 'x', token: 'x', eventData: { eventId: 'bad id!' } }],
    ['a time that is no time', { idFunnel: 'x', token: 'x', eventData: { eventTime: 'yesterday' } }],
    ['JSON that does not parse', '{"idFunnel":'],
  ])('refuses %s with 400', async (_label, body) => {
    for (const path of ['/api/funnel/track/pixel', '/funnel/track/pixel']) {
      expect((await post(path, body)).status, path).toBe(400);
    }
  });

  it('refuses a body over 16 KiB with 413', async () => {
    const response = await post('/api/funnel/track/pixel', {
      idFunnel: 'x',
      eventData: { agent: 'a'.repeat(2000) },
      padding: 'p'.repeat(17 * 1024),
    });
    expect(response.status).toBe(413);
  });
});
