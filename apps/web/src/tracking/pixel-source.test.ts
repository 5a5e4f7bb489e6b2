import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageWithoutToken, trackPixel } from './tracking-api';

const TOKEN = 'Qm9vdHN0cmFwVG9rZW5CYXNlMDEyMzQ1';

describe('the page the pixel names (issue 16)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each([
    [`https://app.example.com/acme/${TOKEN}`, 'https://app.example.com/acme'],
    [`https://app.example.com/acme/${TOKEN}/?utm_source=fb#top`, 'https://app.example.com/acme'],
    [`https://clases.example.com/${TOKEN}?fbclid=IwAR0&token=${TOKEN}`, 'https://clases.example.com/'],
    [`https://clases.example.com/%51${TOKEN.slice(1)}`, 'https://clases.example.com/'],
    [`http://127.0.0.1:3000/acme/${TOKEN}`, 'http://127.0.0.1:3000/acme'],
  ])('%s is %s', (href, expected) => {
    expect(pageWithoutToken(href, TOKEN)).toBe(expected);
  });

  it('sends the lead’s token as its credential, and the page without it', async () => {
    const bodies: string[] = [];
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      bodies.push(typeof init.body === 'string' ? init.body : '');
      return Promise.resolve(
        new Response('{"success":true}', { status: 200, headers: { 'content-type': 'application/json' } }),
      );
    });
    const answer = await trackPixel({
      idFunnel: 'funnel-1',
      token: TOKEN,
      eventSource: `https://app.example.com/acme/${TOKEN}?utm_source=fb`,
      agent: 'Mozilla/5.0',
    });
    expect(answer).toEqual({ success: true });
    expect(bodies).toHaveLength(1);
    const body = JSON.parse(bodies[0] ?? '{}') as { token?: string; eventData?: Record<string, unknown> };
    expect(body.token).toBe(TOKEN);
    expect(body.eventData).toMatchObject({ eventName: 'Lead', eventSource: 'https://app.example.com/acme' });
    expect(JSON.stringify(body.eventData)).not.toContain(TOKEN);
  });
});
