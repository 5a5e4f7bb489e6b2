// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { click, closePage, fieldLabelled, json, open, page, sent, serve, type } from '../app/test-page';

/** The API keys screen, the whole app in a page; only the network is a stand-in. */

const ACCOUNT_ID = '11111111-1111-4111-8111-111111111111';
const sessionAs = (role: 'owner' | 'editor' | 'viewer') => ({
  user: { id: '33333333-3333-4333-8333-333333333333', email: 'ana@acme.com', name: 'Ana', language: 'en' },
  memberships: [{ account: { id: ACCOUNT_ID, slug: 'acme', name: 'Acme' }, role }],
  currentAccountId: ACCOUNT_ID,
  role,
});
const KEY = {
  id: '77777777-7777-4777-8777-777777777777',
  label: 'Zapier',
  prefix: 'emb_3f9a',
  createdAt: '2026-11-01T10:00:00.000Z',
  lastUsedAt: null,
};
const SECRET = 'emb_3f9a0c1d2e3f4a5b6c7d8e9f0a1b2c3d';

const text = () => page().textContent;

async function clickIn(selector: string, label: string) {
  const scope = page().querySelector(selector);
  const button = [...(scope?.querySelectorAll('button') ?? [])].find((b) => b.textContent === label);
  if (!button) throw new Error(`no button ${label} in ${selector}`);
  await act(async () => {
    button.click();
    await Promise.resolve();
  });
}

afterEach(closePage);

describe('API keys', () => {
  it('an owner creates a key, sees it once with a copy button, then revokes it after confirming', async () => {
    let keys: (typeof KEY)[] = [];
    serve((method, path, body) => {
      if (path === '/api/auth/session') return json(sessionAs('owner'));
      if (path === '/api/owner/api-keys' && method === 'GET') return json(keys);
      if (path === '/api/owner/api-keys' && method === 'POST') {
        const created = { ...KEY, label: (body as { label: string }).label };
        keys = [created];
        return json({ apiKey: created, key: SECRET }, 201);
      }
      if (path === `/api/owner/api-keys/${KEY.id}` && method === 'DELETE') {
        keys = [];
        return new Response(null, { status: 204 });
      }
      return undefined;
    });
    await open('/studio/settings/api-keys');
    await vi.waitFor(() => {
      expect(text()).toContain('No keys yet');
    });
    await click('New key');
    await type(fieldLabelled('Name'), 'Zapier');
    await clickIn('dialog[open]', 'Create key');
    await vi.waitFor(() => {
      expect(fieldLabelled('Zapier').value).toBe(SECRET);
    });
    expect(text()).toContain("Copy it now and keep it somewhere safe: we won't show it again.");
    expect(page().querySelector('dialog[open]')?.textContent).toContain('Copy');
    await clickIn('dialog[open]', 'Done');
    // Shown once: gone from the page, the list has its prefix only.
    await vi.waitFor(() => {
      expect(page().innerHTML).not.toContain(SECRET);
    });
    expect(text()).toContain('emb_3f9a…');
    expect(text()).toContain('Never used');

    await act(async () => {
      page().querySelector<HTMLButtonElement>('button[aria-label="Revoke: Zapier"]')?.click();
      await Promise.resolve();
    });
    expect(page().querySelector('[role="alertdialog"]')?.textContent).toContain('Revoke “Zapier”?');
    expect(sent.some((s) => s.method === 'DELETE')).toBe(false);
    await clickIn('[role="alertdialog"]', 'Revoke');
    await vi.waitFor(() => {
      expect(text()).toContain('Key revoked.');
    });
    expect(sent.filter((s) => s.method === 'DELETE').map((s) => s.path)).toEqual([
      `/api/owner/api-keys/${KEY.id}`,
    ]);
  });

  it("hides creation from an editor and says which role the server's 403 asks for", async () => {
    serve((method, path) => {
      if (path === '/api/auth/session') return json(sessionAs('editor'));
      if (path === '/api/owner/api-keys' && method === 'GET')
        return json(
          { statusCode: 403, code: 'ROLE_REQUIRED', message: 'Needs owner', requiredRole: 'owner' },
          403,
        );
      return undefined;
    });
    await open('/studio/settings/api-keys');
    await vi.waitFor(() => {
      expect(text()).toContain('You need the Owner role to do this.');
    });
    expect(text()).toContain('Only an owner can change this. Your role: Editor.');
    expect([...page().querySelectorAll('button')].some((b) => b.textContent === 'New key')).toBe(false);
  });
});
