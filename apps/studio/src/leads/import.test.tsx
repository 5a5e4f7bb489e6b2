// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../app/App';

/**
 * The leads screen's CSV import in a browser-like page, the whole Studio around it; only the network
 * is a stand-in answering as the server does.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ACCOUNT_ID = '11111111-1111-4111-8111-111111111111';
const FUNNEL_ID = '22222222-2222-4222-8222-222222222222';
const SESSION = {
  user: { id: '33333333-3333-4333-8333-333333333333', email: 'ana@acme.com', name: 'Ana', language: 'en' },
  memberships: [{ account: { id: ACCOUNT_ID, slug: 'acme', name: 'Acme' }, role: 'editor' }],
  currentAccountId: ACCOUNT_ID,
  role: 'editor',
};
const FUNNEL = {
  id: FUNNEL_ID,
  name: 'Launch',
  typeFunnel: 'VSL',
  language: 'en',
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
  pixel: { pixelId: null, hasAccessToken: false, testEventCode: null },
  pageCount: 0,
  leadCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const imports: { leads: { name: string; email: string | null; phone: string | null }[] }[] = [];

function serve(importAnswer: (leads: { name: string }[]) => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        'http://localhost',
      );
      const method = init.method ?? 'GET';
      const path = url.pathname;
      if (path === '/api/auth/session') return Promise.resolve(json(SESSION));
      if (path === `/api/owner/funnels/${FUNNEL_ID}`) return Promise.resolve(json(FUNNEL));
      if (path === `/api/owner/funnels/${FUNNEL_ID}/pages`) return Promise.resolve(json([]));
      if (path === `/api/owner/funnels/${FUNNEL_ID}/leads` && method === 'GET')
        return Promise.resolve(json({ items: [], nextCursor: null }));
      if (path === `/api/owner/funnels/${FUNNEL_ID}/leads/import` && method === 'POST') {
        const body = JSON.parse(typeof init.body === 'string' ? init.body : '') as (typeof imports)[number];
        imports.push(body);
        return Promise.resolve(importAnswer(body.leads));
      }
      return Promise.reject(new Error(`no answer for ${method} ${path}`));
    }),
  );
}

let container: HTMLElement;
let root: Root;

async function open(path: string) {
  Object.defineProperty(navigator, 'languages', { value: ['en-GB'], configurable: true });
  window.history.replaceState(null, '', path);
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () => {
    root.render(<App />);
    await Promise.resolve();
  });
}

const dialog = () => {
  const open = [...document.querySelectorAll('dialog')].find((d) => d.open);
  if (!open) throw new Error('no open dialog');
  return open;
};

async function click(text: string, within: ParentNode = container) {
  const button = [...within.querySelectorAll('button')].find((b) => b.textContent.trim() === text);
  if (!button) throw new Error(`no button ${text}`);
  await act(async () => {
    button.click();
    await Promise.resolve();
  });
}

async function chooseFile(csv: string) {
  const input = dialog().querySelector('input[type="file"]');
  if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
  const file = new File([csv], 'leads.csv', { type: 'text/csv' });
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await Promise.resolve();
  });
}

/** The rows of the per-row report: [row, field, problem]. */
const report = () =>
  [...dialog().querySelectorAll('table tbody tr')].map((tr) =>
    [...tr.querySelectorAll('td')].map((td) => td.textContent.trim()),
  );

function csvOf(count: number, bad?: { at: number; line: string }): string {
  const lines = ['name,email,phone'];
  for (let i = 1; i <= count; i += 1)
    lines.push(`Lead ${i},lead${i}@example.com,+52 55 0000 ${String(i).padStart(4, '0')}`);
  if (bad) lines[bad.at] = bad.line;
  return lines.join('\n');
}

const created = (leads: { name: string }[]) =>
  json(
    {
      count: leads.length,
      leads: leads.map((lead, i) => ({
        lead: {
          id: `44444444-4444-4444-8444-${String(i).padStart(12, '0')}`,
          funnelId: FUNNEL_ID,
          name: lead.name,
          email: null,
          phone: null,
          currentPageId: null,
          deadlineAt: null,
          deadlineExceptionOn: null,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
        token: `token-${i}`,
        url: `http://localhost/p/token-${i}`,
      })),
    },
    201,
  );

beforeEach(() => {
  imports.length = 0;
});

afterEach(() => {
  act(() => {
    root.unmount();
  });
  container.remove();
  vi.unstubAllGlobals();
});

describe('importing leads from a CSV', () => {
  it('names the bad rows and sends nothing; once fixed, sends every lead and offers the links', async () => {
    serve(created);
    await open(`/studio/funnels/${FUNNEL_ID}/leads`);
    await vi.waitFor(() => {
      expect(container.textContent).toContain('No leads in this funnel yet');
    });
    await click('Import CSV');
    // Lead 437 is on row 438 of the file (the header is row 1).
    await chooseFile(csvOf(1000, { at: 437, line: 'Lead 437,not-an-email,12' }));
    await vi.waitFor(() => {
      expect(report()).toEqual([
        ['438', 'email', expect.any(String)],
        ['438', 'phone', 'a phone number is digits, spaces, brackets and dashes'],
      ]);
    });
    expect(dialog().textContent).toContain('Problems found: 2. Nothing will be imported');
    const importButton = [...dialog().querySelectorAll('button')].find((b) =>
      b.textContent.startsWith('Import '),
    );
    expect(importButton?.disabled).toBe(true);
    expect(imports).toEqual([]);

    await chooseFile(csvOf(1000));
    await vi.waitFor(() => {
      expect(dialog().textContent).toContain('1000 leads ready to import.');
    });
    expect(report()).toEqual([]);
    await click('Import 1000 leads', dialog());
    await vi.waitFor(() => {
      expect(dialog().textContent).toContain('1000 leads imported.');
    });
    expect(imports).toHaveLength(1);
    expect(imports[0]?.leads[0]).toEqual({
      name: 'Lead 1',
      email: 'lead1@example.com',
      phone: '+52 55 0000 0001',
    });
    expect(dialog().textContent).toContain('shown only this once');
    expect(
      [...dialog().querySelectorAll('button')].some((b) => b.textContent === 'Download links (CSV)'),
    ).toBe(true);
  });

  it('names the rows the server refused in a later batch, counting from the file', async () => {
    // The first batch of 5,000 goes in; the second is refused for its lead 2 (row 5,004 of the file).
    serve((leads) =>
      imports.length === 1
        ? created(leads)
        : json(
            {
              statusCode: 400,
              code: 'VALIDATION_ERROR',
              message: 'Invalid body',
              issues: [{ path: 'body.leads.2.email', message: 'this e-mail is on the block list' }],
            },
            400,
          ),
    );
    await open(`/studio/funnels/${FUNNEL_ID}/leads`);
    await vi.waitFor(() => {
      expect(container.textContent).toContain('No leads in this funnel yet');
    });
    await click('Import CSV');
    await chooseFile(csvOf(5010));
    await vi.waitFor(() => {
      expect(dialog().textContent).toContain('5010 leads ready to import.');
    });
    await click('Import 5010 leads', dialog());
    await vi.waitFor(() => {
      expect(report()).toEqual([['5004', 'email', 'this e-mail is on the block list']]);
    });
    expect(imports.map((call) => call.leads.length)).toEqual([5000, 10]);
    expect(dialog().textContent).toContain('5000 leads were imported before the failure');
    const progress = dialog().querySelector('progress');
    expect(progress?.getAttribute('value')).toBe('5000');
  });
});
