// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  alertText,
  click,
  closePage,
  errorOf,
  fieldLabelled,
  json,
  open,
  page,
  sent,
  serve,
  type,
} from '../app/test-page';

/** The funnel settings form, the whole Studio in a page; only the network is a stand-in. */

const ACCOUNT_ID = '11111111-1111-4111-8111-111111111111';
const FUNNEL_ID = '22222222-2222-4222-8222-222222222222';
const sessionAs = (role: 'owner' | 'editor') => ({
  user: { id: '33333333-3333-4333-8333-333333333333', email: 'ana@acme.com', name: 'Ana', language: 'en' },
  memberships: [{ account: { id: ACCOUNT_ID, slug: 'acme', name: 'Acme' }, role }],
  currentAccountId: ACCOUNT_ID,
  role,
});
const FUNNEL = {
  id: FUNNEL_ID,
  name: 'Launch',
  typeFunnel: 'VSL',
  language: 'es',
  deadline: { mode: 'none' },
  isDeadlineExceptionOn: true,
  isPreLaunch: false,
  isFakeUserOnlineOn: false,
  fakeUserRange: [20, 100],
  isFomoOn: false,
  fomo: {
    lpi: { fomoApplied: false },
    video: { fomoApplied: false },
    offert: { fomoApplied: false },
    intervalSeconds: 20,
    position: 'left',
    source: 'both',
    messages: [],
  },
  expiredPage: { title: '', subtitle: '', description: '', highlight: '', bgImageUrl: null },
  pixel: { pixelId: '1234567890', hasAccessToken: true, testEventCode: null },
  pageCount: 2,
  leadCount: 5,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function serveFunnel(role: 'owner' | 'editor', patch: (body: unknown) => Response) {
  serve((method, path, body) => {
    if (path === '/api/auth/session') return json(sessionAs(role));
    if (path === `/api/owner/funnels/${FUNNEL_ID}` && method === 'GET') return json(FUNNEL);
    if (path === `/api/owner/funnels/${FUNNEL_ID}` && method === 'PATCH') return patch(body);
    if (path === '/api/owner/funnels') return json([FUNNEL]);
    return undefined;
  });
}

/** A checkbox by the text of its label. */
function checkbox(text: string): HTMLInputElement {
  const label = [...page().querySelectorAll('label')].find((l) => l.textContent.startsWith(text));
  const input = label?.querySelector('input[type="checkbox"]');
  if (!(input instanceof HTMLInputElement)) throw new Error(`no checkbox ${text}`);
  return input;
}

async function toggle(text: string) {
  await act(async () => {
    checkbox(text).click();
    await Promise.resolve();
  });
}

const patches = () => sent.filter((call) => call.method === 'PATCH').map((call) => call.body);
const text = () => page().textContent;

afterEach(closePage);

describe('the funnel settings form', () => {
  it("shows the server's field errors beside their fields and keeps what was typed", async () => {
    serveFunnel('owner', () =>
      json(
        {
          statusCode: 400,
          code: 'VALIDATION_ERROR',
          message: 'Invalid body',
          issues: [
            { path: 'body.name', message: 'a funnel with this name exists' },
            { path: 'body.pixel.testEventCode', message: 'not a test event code' },
          ],
        },
        400,
      ),
    );
    await open(`/studio/funnels/${FUNNEL_ID}/settings`, ['en-GB']);
    await expect.poll(() => fieldLabelled('Name').value).toBe('Launch');
    await type(fieldLabelled('Name'), 'Launch 2');
    await type(fieldLabelled('Test event code'), 'TEST123');
    await click('Save changes');
    await expect.poll(() => errorOf(fieldLabelled('Name'))).toBe('a funnel with this name exists');
    expect(errorOf(fieldLabelled('Test event code'))).toBe('not a test event code');
    expect(fieldLabelled('Name').value).toBe('Launch 2');
    // The stored token is kept: a save that does not replace it does not send one.
    expect(patches()).toEqual([
      expect.objectContaining({
        name: 'Launch 2',
        pixel: { pixelId: '1234567890', testEventCode: 'TEST123' },
      }),
    ]);
  });

  it('keeps what was typed on a 5xx and says so', async () => {
    serveFunnel('owner', () => json({ statusCode: 500, code: 'INTERNAL', message: 'boom' }, 500));
    await open(`/studio/funnels/${FUNNEL_ID}/settings`, ['en-GB']);
    await expect.poll(() => fieldLabelled('Name').value).toBe('Launch');
    await type(fieldLabelled('Name'), 'Renamed');
    await type(fieldLabelled('New access token'), 'EAAB-new-token-value');
    await click('Save changes');
    await expect.poll(alertText).toContain('what you typed is still here');
    expect(fieldLabelled('Name').value).toBe('Renamed');
    expect(fieldLabelled('New access token').value).toBe('EAAB-new-token-value');
    expect(patches()[0]).toMatchObject({ pixel: { accessToken: 'EAAB-new-token-value' } });
  });

  it('shows the consumer-protection note while a fake element is on, and sends the deadline as a moment', async () => {
    serveFunnel('owner', (body) => json({ ...FUNNEL, ...(body as object) }));
    await open(`/studio/funnels/${FUNNEL_ID}/settings`, ['en-GB']);
    await expect.poll(() => fieldLabelled('Name').value).toBe('Launch');
    expect(text()).not.toContain('consumer-protection rules');
    await toggle('Online-visitors count');
    expect(text()).toContain(
      'consumer-protection rules in the EU, Brazil and the US forbid invented scarcity',
    );
    await toggle('Online-visitors count');
    expect(text()).not.toContain('consumer-protection rules');

    const mode = [...page().querySelectorAll('select')].find((s) => s.value === 'none');
    if (!mode) throw new Error('no deadline policy');
    await act(async () => {
      mode.value = 'fixed';
      mode.dispatchEvent(new Event('change', { bubbles: true }));
      await Promise.resolve();
    });
    await type(fieldLabelled('Expires at'), '2026-12-24T18:30');
    await toggle('Clear the stored token');
    await click('Save changes');
    await expect.poll(() => patches().length).toBe(1);
    expect(patches()[0]).toMatchObject({
      deadline: { mode: 'fixed', at: new Date('2026-12-24T18:30').toISOString() },
      isFakeUserOnlineOn: false,
      pixel: { accessToken: null },
    });
  });

  it('lets an editor change the funnel but not the pixel, and sends no pixel', async () => {
    serveFunnel('editor', (body) => json({ ...FUNNEL, ...(body as object) }));
    await open(`/studio/funnels/${FUNNEL_ID}/settings`, ['en-GB']);
    await expect.poll(() => fieldLabelled('Name').value).toBe('Launch');
    expect(text()).toContain('Only the Owner role may change the pixel.');
    expect(fieldLabelled('Pixel ID').closest('fieldset')?.disabled).toBe(true);
    expect(text()).toContain('Access token: Set');
    expect(() => fieldLabelled('New access token')).toThrow();
    await type(fieldLabelled('Name'), 'Edited');
    await click('Save changes');
    await expect.poll(() => patches().length).toBe(1);
    expect(patches()[0]).toMatchObject({ name: 'Edited' });
    expect(patches()[0]).not.toHaveProperty('pixel');
  });
});
