import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { STUDIO_CONTENT_SECURITY_POLICY, studioDocumentRoutes } from './studio-document';

const BUILT = {
  name: 'studio',
  entryScript: '/static/studio/assets/entry-client-AAAA.js',
  preload: ['/static/studio/assets/vendor-BBBB.js'],
  styles: ['/static/studio/assets/entry-client-CCCC.css'],
};

/** A server with the Studio's document and, like the real one, a visitor page at every other GET. */
async function serverWith() {
  const server = Fastify();
  server.get('/*', (_req, reply) => reply.type('text/html').send('visitor page'));
  await server.register(studioDocumentRoutes, { publicUrl: 'https://studio.example.com', app: BUILT });
  return server;
}

describe('the Studio document', () => {
  it.each(['/studio', '/studio/', '/studio/settings/members', '/studio/invite/abc?x=1'])(
    'answers %s on the operator host with the shell that loads the bundle, under a strict policy',
    async (url) => {
      const server = await serverWith();
      const reply = await server.inject({ url, headers: { host: 'studio.example.com' } });
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(reply.body).toContain(
        '<script type="module" src="/static/studio/assets/entry-client-AAAA.js"></script>',
      );
      expect(reply.body).toContain(
        '<link rel="stylesheet" href="/static/studio/assets/entry-client-CCCC.css">',
      );
      expect(reply.body).toContain('<link rel="modulepreload" href="/static/studio/assets/vendor-BBBB.js">');
      // No inline script or style for the policy to allow.
      expect(reply.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(reply.body).not.toMatch(/<style|style=/);
      expect(reply.headers['content-security-policy']).toBe(STUDIO_CONTENT_SECURITY_POLICY);
      expect(reply.headers['cache-control']).toBe('no-store');
      expect(reply.headers['x-frame-options']).toBe('DENY');
      expect(reply.headers['referrer-policy']).toBe('same-origin');
      await server.close();
    },
  );

  it('holds the policy the Studio needs: its own scripts and styles only, never framed', () => {
    const directives = new Map(
      STUDIO_CONTENT_SECURITY_POLICY.split('; ').map((d): [string, string[]] => [
        d.split(' ')[0] ?? '',
        d.split(' ').slice(1),
      ]),
    );
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
  });

  it('answers the operator host on any port', async () => {
    const server = await serverWith();
    const reply = await server.inject({ url: '/studio', headers: { host: 'STUDIO.example.com:8443' } });
    expect(reply.body).toContain('entry-client-AAAA.js');
    await server.close();
  });

  it.each(['acme.example.com', 'ventas.cliente.com', 'studio.example.com.evil.net'])(
    'leaves /studio on %s to what it was before (a visitor page)',
    async (host) => {
      const server = await serverWith();
      for (const url of ['/studio', '/studio/settings']) {
        const reply = await server.inject({ url, headers: { host } });
        expect(reply.body).toBe('visitor page');
        expect(reply.headers['content-security-policy']).toBeUndefined();
      }
      await server.close();
    },
  );
});
