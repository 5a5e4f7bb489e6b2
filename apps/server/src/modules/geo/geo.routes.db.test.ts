import type { AddressInfo } from 'node:net';
import fastifySwagger from '@fastify/swagger';
import { GeoAnswer, UNKNOWN } from '@embudo/contracts';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geoRoutes } from './geo.routes';
import { createGeoService, type GeoLogger } from './geo.service';

// Compile-time: the app's pino logger can be handed to the service as it is.
const _pinoFits: FastifyBaseLogger extends GeoLogger ? true : never = true;

const geo = createGeoService({ database: 'city' });

async function start(trustProxy: boolean): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false, trustProxy });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'geo test', version: '0' } },
    transform: jsonSchemaTransform,
  });
  await app.register(geoRoutes, { geo });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}` };
}

async function getJson(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

describe('GET /api/geo and /geo', () => {
  let direct: { app: FastifyInstance; url: string };
  let proxied: { app: FastifyInstance; url: string };
  beforeAll(async () => {
    direct = await start(false);
    proxied = await start(true);
  });
  afterAll(async () => {
    await direct.app.close();
    await proxied.app.close();
    geo.close();
  });

  it.each(['/api/geo', '/geo'])('%s from loopback answers the unknown fallback', async (path) => {
    const { status, headers, body } = await getJson(`${direct.url}${path}`);
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('private, max-age=3600');
    const answer = GeoAnswer.strict().parse(body);
    expect(answer.ip).toBe('127.0.0.1');
    expect(answer).toMatchObject({ country_code: UNKNOWN, country_name: UNKNOWN, city: UNKNOWN });
    expect(answer.latitude).toBe(0);
    expect(answer.longitude).toBe(0);
  });

  it('refuses ?ip=: only the caller’s own address is looked up', async () => {
    const { status } = await getJson(`${direct.url}/api/geo?ip=8.8.8.8`);
    expect(status).toBe(400);
    expect((await getJson(`${direct.url}/geo?ip=8.8.8.8`)).status).toBe(400);
  });

  it('does not believe X-Forwarded-For unless the server trusts proxies', async () => {
    const { body } = await getJson(`${direct.url}/api/geo`, { 'x-forwarded-for': '8.8.8.8' });
    expect(GeoAnswer.parse(body).country_code).toBe(UNKNOWN);
  });

  it('behind a trusted proxy answers for the forwarded address', async () => {
    const { status, body } = await getJson(`${proxied.url}/api/geo`, { 'x-forwarded-for': '8.8.8.8' });
    expect(status).toBe(200);
    expect(GeoAnswer.parse(body)).toMatchObject({ ip: '8.8.8.8', country_code: 'US', currency: 'USD' });
  });

  it('documents /api/geo in OpenAPI and hides the unprefixed /geo', () => {
    const paths = Object.keys(direct.app.swagger().paths ?? {});
    expect(paths).toContain('/api/geo');
    expect(paths).not.toContain('/geo');
  });
});
