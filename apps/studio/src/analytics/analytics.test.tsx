// @vitest-environment happy-dom
import type { FollowUp, FunnelAnalytics, LeadTimeline, PageAnalytics } from '@embudo/contracts';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closePage, json, open, page, sent, serve } from '../app/test-page';
import { addDays, todayIn } from './range';

/**
 * The analytics screens in a browser-like page, the whole Studio around them; only the network is a
 * stand-in answering as the server's contract says (packages/contracts/src/owner/analytics.ts).
 */

const ACCOUNT_ID = '11111111-1111-4111-8111-111111111111';
const FUNNEL_ID = '22222222-2222-4222-8222-222222222222';
const PAGE_1 = '55555555-5555-4555-8555-555555555551';
const PAGE_2 = '55555555-5555-4555-8555-555555555552';
const LEAD_ID = '44444444-4444-4444-8444-444444444444';
const ZONE = 'America/Bogota';
const SESSION = {
  user: { id: '33333333-3333-4333-8333-333333333333', email: 'ana@acme.com', name: 'Ana', language: 'en' },
  memberships: [{ account: { id: ACCOUNT_ID, slug: 'acme', name: 'Acme' }, role: 'viewer' }],
  currentAccountId: ACCOUNT_ID,
  role: 'viewer',
};
const ACCOUNT = {
  id: ACCOUNT_ID,
  slug: 'acme',
  name: 'Acme',
  subscriptionStatus: 'active',
  settings: { whatsappLandingButtonBgColor: null, contactEmail: null, timeZone: ZONE },
  createdAt: '2026-01-01T00:00:00.000Z',
};
const FUNNEL = {
  id: FUNNEL_ID,
  name: 'Launch',
  typeFunnel: 'VSL',
  language: 'en',
  pageCount: 2,
  leadCount: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const pageOf = (id: string, position: number, headline: string) => ({
  id,
  funnelId: FUNNEL_ID,
  position,
  headline,
  buttonTime: { hours: 0, minutes: 0, seconds: 8 },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const PAGES = [pageOf(PAGE_2, 1, '<p>The offer</p>'), pageOf(PAGE_1, 0, '<p>Watch <b>this</b></p>')];
const LEAD = {
  id: LEAD_ID,
  funnelId: FUNNEL_ID,
  name: 'Bruna Lima',
  email: 'bruna@example.com',
  phone: null,
  currentPageId: PAGE_1,
  deadlineAt: null,
  deadlineExceptionOn: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

function pageAnswer(from: string, to: string, reach: number[], views: number[] = reach): PageAnalytics {
  const plays = reach.some((n) => n > 0) ? 1 : 0;
  return {
    pageId: PAGE_1,
    from,
    to,
    timeZone: ZONE,
    sessions: plays === 0 && reach.length === 0 ? 0 : 4,
    plays,
    playRate: 0.25,
    uniqueViewers: plays,
    averageWatched: 0.5,
    pastButton: 0,
    clicks: 0,
    clickRate: 0,
    conversions: 0,
    videoDuration: 12,
    buttonTimeSeconds: 8,
    retention: { reach, views },
    byDay: [{ date: to, sessions: 4, plays, clicks: 0, conversions: 0 }],
    conversionsByFurthest: [
      { fromSecond: 0, toSecond: 5, leads: 1, converted: 0 },
      { fromSecond: 6, toSecond: 11, leads: 0, converted: 0 },
    ],
  };
}

const EMPTY_PAGE = (from: string, to: string): PageAnalytics => ({
  ...pageAnswer(from, to, new Array<number>(12).fill(0)),
  sessions: 0,
  plays: 0,
  playRate: null,
  uniqueViewers: 0,
  averageWatched: null,
  clickRate: null,
  byDay: [],
  conversionsByFurthest: [],
});

type Answer = (query: URLSearchParams) => Response;

/** The network: the session, the account, the funnel and its pages, and the given analytics answers. */
function serveAnalytics(routes: Record<string, Answer>) {
  serve((method, address) => {
    const url = new URL(address, 'http://localhost');
    if (method !== 'GET') return undefined;
    const path = url.pathname;
    if (path === '/api/auth/session') return json(SESSION);
    if (path === '/api/owner/account') return json(ACCOUNT);
    if (path === `/api/owner/funnels/${FUNNEL_ID}`) return json(FUNNEL);
    if (path === `/api/owner/funnels/${FUNNEL_ID}/pages`) return json(PAGES);
    if (path === `/api/owner/leads/${LEAD_ID}`) return json(LEAD);
    return routes[path]?.(url.searchParams);
  });
}

const text = () => page().textContent;
const calls = (path: string) =>
  sent.filter((call) => call.path.startsWith(path)).map((call) => new URL(call.path, 'http://localhost'));
const retention = () => page().querySelector<HTMLElement>('[data-testid="retention"]');
const numbers = (attribute: string) => retention()?.getAttribute(attribute)?.split(',').map(Number) ?? null;

async function press(label: string) {
  const button = [...page().querySelectorAll('button')].find((b) => b.textContent.trim() === label);
  if (!button) throw new Error(`no button ${label}`);
  await act(async () => {
    button.click();
    await Promise.resolve();
  });
}

afterEach(closePage);

describe("a page's dashboard", () => {
  it('shows the headline numbers and the retention the server counted, and follows new numbers without reloading', async () => {
    let reach = [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0];
    serveAnalytics({
      [`/api/owner/pages/${PAGE_1}/analytics`]: (query) =>
        json(pageAnswer(query.get('from') ?? '', query.get('to') ?? '', reach)),
    });
    await open(`/studio/funnels/${FUNNEL_ID}/analytics/pages/${PAGE_1}`, ['en-US']);
    await vi.waitFor(() => {
      expect(numbers('data-reach')).toEqual([1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    });
    // Page 1 by position, with its headline as text.
    expect(page().querySelector('h2')?.textContent).toBe('Page 1 · Watch this');
    const stat = (key: string) =>
      page().querySelector(`[data-stat="${key}"]`)?.querySelector('dd')?.textContent ?? null;
    expect(stat('sessions')).toBe('4');
    expect(stat('plays')).toBe('1');
    expect(stat('playRate')).toBe('25%');
    expect(stat('averageWatched')).toBe('50%');
    expect(stat('clickRate')).toBe('0%');
    expect(text()).toContain('Button at 0:08');
    // The plotted numbers as text: seconds 0 to 5 reached by one lead, the rest by none.
    const runs = [...page().querySelectorAll('[data-testid="retention"] tbody tr')].map((row) =>
      [...row.children].map((cell) => cell.textContent),
    );
    expect(runs).toEqual([
      ['0:00–0:05', '1', '1'],
      ['0:06–0:11', '0', '0'],
    ]);
    expect(page().querySelector('[role="img"]')?.getAttribute('aria-label')).toContain(
      '1 leads at the start, 0 at the button (0:08)',
    );
    // The last 30 days up to today in the account's time zone, by default.
    const today = todayIn(ZONE);
    const first = calls(`/api/owner/pages/${PAGE_1}/analytics`)[0];
    expect(first?.searchParams.get('from')).toBe(addDays(today, -29));
    expect(first?.searchParams.get('to')).toBe(today);

    // A second lead watches: the open screen shows it at the next poll, with no loading state between.
    reach = [2, 2, 2, 2, 2, 2, 1, 1, 1, 0, 0, 0];
    await vi.waitFor(
      () => {
        expect(page().querySelector('[role="status"]')).toBeNull();
        expect(numbers('data-reach')).toEqual([2, 2, 2, 2, 2, 2, 1, 1, 1, 0, 0, 0]);
      },
      { timeout: 5_000, interval: 50 },
    );
  });

  it('says so when the range has no visits instead of drawing zeros', async () => {
    serveAnalytics({
      [`/api/owner/pages/${PAGE_1}/analytics`]: (query) =>
        json(EMPTY_PAGE(query.get('from') ?? '', query.get('to') ?? '')),
    });
    await open(`/studio/funnels/${FUNNEL_ID}/analytics/pages/${PAGE_1}?range=today`, ['en-US']);
    await vi.waitFor(() => {
      expect(text()).toContain('No visits in this range');
    });
    expect(retention()).toBeNull();
    expect(page().querySelector('[data-stat]')).toBeNull();
    const today = todayIn(ZONE);
    const asked = calls(`/api/owner/pages/${PAGE_1}/analytics`)[0];
    expect([asked?.searchParams.get('from'), asked?.searchParams.get('to')]).toEqual([today, today]);
  });

  it('asks for the days of the range picked: a preset, or custom days checked before they are sent', async () => {
    serveAnalytics({
      [`/api/owner/pages/${PAGE_1}/analytics`]: (query) =>
        json(
          pageAnswer(query.get('from') ?? '', query.get('to') ?? '', [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ),
    });
    await open(`/studio/funnels/${FUNNEL_ID}/analytics/pages/${PAGE_1}`, ['en-US']);
    await vi.waitFor(() => {
      expect(retention()).not.toBeNull();
    });
    const today = todayIn(ZONE);
    await press('7 days');
    await vi.waitFor(() => {
      expect(window.location.search).toBe('?range=7d');
      expect(calls(`/api/owner/pages/${PAGE_1}/analytics`).map((u) => u.searchParams.get('from'))).toContain(
        addDays(today, -6),
      );
    });

    await press('Custom');
    const from = page().querySelector<HTMLInputElement>('input[type="date"]');
    const to = page().querySelectorAll<HTMLInputElement>('input[type="date"]')[1];
    if (!from || !to) throw new Error('no date fields');
    const setValue = async (input: HTMLInputElement, value: string) => {
      const descriptor = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
      await act(async () => {
        descriptor?.set?.call(input, value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await Promise.resolve();
      });
    };
    await setValue(from, '2026-03-10');
    await setValue(to, '2026-03-01');
    expect(text()).toContain('The last day is on or after the first.');
    expect([...page().querySelectorAll('button')].find((b) => b.textContent === 'Apply')?.disabled).toBe(
      true,
    );
    await setValue(to, '2026-03-20');
    await press('Apply');
    await vi.waitFor(() => {
      const last = calls(`/api/owner/pages/${PAGE_1}/analytics`).at(-1);
      expect([last?.searchParams.get('from'), last?.searchParams.get('to')]).toEqual([
        '2026-03-10',
        '2026-03-20',
      ]);
    });
    expect(new URLSearchParams(window.location.search).get('range')).toBe('custom');
  });

  it('shows a failure with a retry, and the numbers once the retry succeeds', async () => {
    let fail = true;
    serveAnalytics({
      [`/api/owner/pages/${PAGE_1}/analytics`]: (query) =>
        fail
          ? json({ statusCode: 404, code: 'NOT_FOUND', message: 'No such page' }, 404)
          : json(
              pageAnswer(
                query.get('from') ?? '',
                query.get('to') ?? '',
                [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
              ),
            ),
    });
    await open(`/studio/funnels/${FUNNEL_ID}/analytics/pages/${PAGE_1}`, ['en-US']);
    await vi.waitFor(() => {
      expect(page().querySelector('[role="alert"]')).not.toBeNull();
    });
    expect(retention()).toBeNull();
    fail = false;
    await press('Try again');
    await vi.waitFor(() => {
      expect(numbers('data-reach')?.[0]).toBe(1);
    });
  });
});

describe("the funnel's analytics tab", () => {
  it('shows each page in order with reached, completed, clicked and converted, and links to each dashboard', async () => {
    const answer: FunnelAnalytics = {
      funnelId: FUNNEL_ID,
      from: '2026-03-01',
      to: '2026-03-30',
      timeZone: ZONE,
      steps: [
        { pageId: PAGE_2, position: 1, reached: 4, completed: 2, clicked: 1, converted: 1 },
        { pageId: PAGE_1, position: 0, reached: 10, completed: 6, clicked: 5, converted: 0 },
      ],
      byDay: [
        { date: '2026-03-02', entered: 10, sessions: 14, plays: 12, clicks: 6, conversions: 1 },
        { date: '2026-03-03', entered: 0, sessions: 0, plays: 0, clicks: 0, conversions: 0 },
      ],
    };
    serveAnalytics({ [`/api/owner/funnels/${FUNNEL_ID}/analytics`]: () => json(answer) });
    await open(`/studio/funnels/${FUNNEL_ID}/analytics`, ['en-US']);
    await vi.waitFor(() => {
      expect(page().querySelectorAll('[data-page]')).toHaveLength(2);
    });
    const steps = [...page().querySelectorAll('[data-page]')].map((step) => [
      step.getAttribute('data-page'),
      ...[...step.querySelectorAll('[data-step]')].map((row) => row.textContent),
    ]);
    expect(steps).toEqual([
      [PAGE_1, 'Reached10', 'Completed6', 'Clicked5', 'Converted0'],
      [PAGE_2, 'Reached4', 'Completed2', 'Clicked1', 'Converted1'],
    ]);
    expect(text()).toContain('10 leads entered the funnel in this range.');
    // The Analytics tab is the current one.
    expect(page().querySelector('nav[aria-label="Funnel sections"] [aria-current="page"]')?.textContent).toBe(
      'Analytics',
    );
    const links = [...page().querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toContain(`/studio/funnels/${FUNNEL_ID}/analytics/pages/${PAGE_1}`);
    expect(links).toContain(`/studio/funnels/${FUNNEL_ID}/analytics/follow-ups`);
    // Days without anything are left out of the table.
    const days = [...page().querySelectorAll('tbody tr')].map((row) => row.firstElementChild?.textContent);
    expect(days).toEqual(['Mar 2']);
  });
});

const followUp = (n: number, share: number): FollowUp => ({
  lead: { ...LEAD, id: `44444444-4444-4444-8444-${String(n).padStart(12, '0')}`, name: `Lead ${n}` },
  pageId: PAGE_1,
  position: 0,
  furthestSecond: Math.round(share * 12) - 1,
  reachedShare: share,
  secondsPlayed: Math.round(share * 12),
  pastButton: true,
  converted: false,
  lastPlayedOn: '2026-03-02',
});

describe('the follow-up list', () => {
  it('lists the leads furthest first, loads more by cursor, switches filter, and exports every row as CSV', async () => {
    const rows = [followUp(1, 1), followUp(2, 0.9), followUp(3, 0.75)];
    serveAnalytics({
      [`/api/owner/funnels/${FUNNEL_ID}/follow-ups`]: (query) => {
        const limit = Number(query.get('limit'));
        // Pages of two rows for the screen; the export asks for more at once.
        const size = limit >= 200 ? 200 : 2;
        const start = Number(query.get('cursor') ?? '0');
        const items = query.get('filter') === 'all' ? rows.slice(0, 1) : rows.slice(start, start + size);
        const next =
          start + size < rows.length && query.get('filter') !== 'all' ? String(start + size) : null;
        return json({ items, nextCursor: next });
      },
    });
    await open(`/studio/funnels/${FUNNEL_ID}/analytics/follow-ups`, ['en-US']);
    const names = () => [...page().querySelectorAll('tbody th a')].map((a) => a.textContent);
    await vi.waitFor(() => {
      expect(names()).toEqual(['Lead 1', 'Lead 2']);
    });
    expect(page().querySelector('tbody tr')?.textContent).toContain('100% · 0:11');
    await press('Load more');
    await vi.waitFor(() => {
      expect(names()).toEqual(['Lead 1', 'Lead 2', 'Lead 3']);
    });
    expect(page().querySelector('tbody th a')?.getAttribute('href')).toBe(
      `/studio/funnels/${FUNNEL_ID}/analytics/leads/${rows[0]?.lead.id ?? ''}`,
    );

    const blobs: Blob[] = [];
    const created = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      if (blob instanceof Blob) blobs.push(blob);
      return 'blob:follow-ups';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    // The browser's download (happy-dom would navigate to the blob instead).
    const downloads: string[] = [];
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(this.download);
    });
    await press('Export CSV');
    await vi.waitFor(() => {
      expect(blobs).toHaveLength(1);
    });
    const csv = (await blobs[0]?.text())?.split('\r\n');
    expect(csv?.[0]).toBe(
      'name,email,phone,page,furthest_second,reached_percent,seconds_played,past_button,converted,last_played_on,lead_id',
    );
    expect(csv?.slice(1).map((line) => line.split(',').slice(0, 6).join(','))).toEqual([
      'Lead 1,bruna@example.com,,1,11,100',
      'Lead 2,bruna@example.com,,1,10,90',
      'Lead 3,bruna@example.com,,1,8,75',
    ]);
    expect(downloads).toEqual([expect.stringMatching(/^follow-ups-\d{4}-\d{2}-\d{2}\.csv$/)]);
    created.mockRestore();
    clicked.mockRestore();

    await press('Everyone who played');
    await vi.waitFor(() => {
      expect(names()).toEqual(['Lead 1']);
    });
    expect(window.location.search).toBe('?filter=all');
    expect(calls(`/api/owner/funnels/${FUNNEL_ID}/follow-ups`).at(-1)?.searchParams.get('filter')).toBe(
      'all',
    );
  });
});

describe("a lead's timeline", () => {
  it('shows the sessions newest first with what was watched, the actions and each conversion with its pixel state', async () => {
    const timeline: LeadTimeline = {
      leadId: LEAD_ID,
      sessions: [
        {
          id: 'older',
          pageId: PAGE_1,
          startAt: '2026-03-01T15:00:00.000Z',
          startReason: 'landing',
          endAt: '2026-03-01T15:04:00.000Z',
          endReason: 'closed',
          device: 'Android · Chrome',
          passes: [{ played: [{ from: 0, to: 6 }] }],
          actions: [],
          conversions: [],
        },
        {
          id: 'newer',
          pageId: PAGE_2,
          startAt: '2026-03-02T15:00:00.000Z',
          startReason: 'next-page',
          endAt: null,
          endReason: null,
          device: null,
          passes: [{ played: [{ from: 0, to: 4 }] }, { played: [{ from: 2, to: 12 }] }],
          actions: [{ action: 'BUTTON_CLICK', at: '2026-03-02T15:01:00.000Z' }],
          conversions: [
            { id: 'c1', pageId: PAGE_2, kind: 'offert', at: '2026-03-02T15:00:30.000Z', pixel: 'failed' },
            { id: 'c2', pageId: PAGE_1, kind: 'VIDEO_VIEWED', at: '2026-03-02T15:00:40.000Z', pixel: null },
          ],
        },
      ],
    };
    serveAnalytics({
      [`/api/owner/leads/${LEAD_ID}/timeline`]: () => json(timeline),
      [`/api/owner/pages/${PAGE_1}/analytics`]: () => json(pageAnswer('2026-03-01', '2026-03-30', [1])),
      [`/api/owner/pages/${PAGE_2}/analytics`]: () => json(pageAnswer('2026-03-01', '2026-03-30', [1])),
    });
    await open(`/studio/funnels/${FUNNEL_ID}/analytics/leads/${LEAD_ID}`, ['en-US']);
    const titles = () => [...page().querySelectorAll('article h3')].map((h) => h.textContent);
    await vi.waitFor(() => {
      expect(titles()).toEqual(['Page 2 · The offer', 'Page 1 · Watch this']);
    });
    expect(page().querySelector('h2')?.textContent).toBe("Bruna Lima's visits");
    const [newer, older] = [...page().querySelectorAll('article')];
    expect(newer?.textContent).toContain('still open');
    expect(newer?.textContent).toContain('Pass 2');
    expect(newer?.textContent).toContain('12 distinct s, up to 0:11');
    expect(newer?.textContent).toContain('Clicked the button');
    expect(newer?.textContent).toContain('Conversion: offert');
    expect(newer?.textContent).toContain('Pixel failed');
    // Actions and conversions in the order they happened.
    const events = [...(newer?.querySelectorAll('li') ?? [])].map((li) => li.textContent);
    // A page completed is no conversion; one of another page says which.
    expect(events.map((e) => e.replace(/^.*?(Conversion|Clicked|Completed)/, '$1'))).toEqual([
      'Conversion: offertPixel failed',
      'Completed the page (watched the video) · Page 1',
      'Clicked the button',
    ]);
    expect(
      [...(newer?.querySelectorAll('[data-intervals]') ?? [])].map((t) => t.getAttribute('data-intervals')),
    ).toEqual(['0-4', '2-12']);
    expect(older?.textContent).toContain('Android · Chrome');
    expect(older?.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe(
      'Watched 0:00–0:06 of 0:12',
    );
  });

  it('is reachable from the leads table by the lead name', async () => {
    serveAnalytics({
      [`/api/owner/funnels/${FUNNEL_ID}/leads`]: () => json({ items: [LEAD], nextCursor: null }),
    });
    await open(`/studio/funnels/${FUNNEL_ID}/leads`, ['en-US']);
    await vi.waitFor(() => {
      expect(page().querySelector('tbody th a')?.textContent, text()).toBe('Bruna Lima');
    });
    expect(page().querySelector('tbody th a')?.getAttribute('href')).toBe(
      `/studio/funnels/${FUNNEL_ID}/analytics/leads/${LEAD_ID}`,
    );
  });
});
