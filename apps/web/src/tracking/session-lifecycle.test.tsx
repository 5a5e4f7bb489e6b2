// @vitest-environment happy-dom
import { TIMING } from '@embudo/contracts/runtime';
import { act, useEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  INACTIVE_FLAG_KEY,
  SESSION_ID_KEY,
  SessionProvider,
  useSession,
  type SessionApi,
} from './SessionProvider';

/**
 * The page session's life in a browser (visitor-behaviour §4.3): started once the location lookup is done, ended
 * as PAGE_CLOSE (kept alive) when the page hides, started again when the page comes back from the
 * back-forward cache, ended as INACTIVITY after 15 minutes without a click or a scroll unless a video
 * plays, and started again as AFTER_INACTIVITY when the visitor continues. Only the network is a
 * stand-in: fetch answers as the server does; the provider, its tracking calls and its HTTP client
 * are the real ones.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

interface Sent {
  method: string;
  path: string;
  body: Record<string, unknown>;
  keepalive: boolean;
}

let sent: Sent[] = [];
let sessions = 0;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The server's answers to the calls a page session makes (visitor-behaviour §7). */
const serverFetch = vi.fn((input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
  return Promise.resolve(answer(input, init));
});

function answer(input: RequestInfo | URL, init: RequestInit): Response {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
  sent.push({ method: init.method ?? 'GET', path: url, body, keepalive: init.keepalive === true });
  if (init.method === 'POST' && url === '/funnel/track/page') {
    sessions += 1;
    return json({ codeResponse: 201, result: true, data: { idTrackingPageSession: `session-${sessions}` } });
  }
  if (init.method === 'PUT' && url.startsWith('/funnel/track/page/'))
    return json({ codeResponse: 200, result: true });
  if (url === '/api/funnel/lead/ip') return json({ success: true });
  return json({ message: 'not found' }, 404);
}

const starts = () => sent.filter((s) => s.method === 'POST' && s.path === '/funnel/track/page');
const ends = () => sent.filter((s) => s.method === 'PUT' && s.path.startsWith('/funnel/track/page/'));

const LOCATION = { ip: '203.0.113.7', location: { country: 'Spain' } };

let root: Root | null = null;
let session: SessionApi | null = null;

/** Hands the provider's API to the test once rendered. */
function Probe({ onSession }: { onSession: (api: SessionApi) => void }) {
  const api = useSession();
  useEffect(() => {
    onSession(api);
  }, [api, onSession]);
  return null;
}

const keepSession = (api: SessionApi) => {
  session = api;
};

function current(): SessionApi {
  if (!session) throw new Error('the provider has not rendered');
  return session;
}

interface Props {
  token?: string | null;
  tracking?: boolean;
  location?: Record<string, unknown> | null;
}

async function render({ token = 'lead-token', tracking = true, location = LOCATION }: Props = {}) {
  root ??= createRoot(document.body.appendChild(document.createElement('div')));
  const mounted = root;
  act(() => {
    mounted.render(
      <SessionProvider token={token} tracking={tracking} location={location}>
        <Probe onSession={keepSession} />
      </SessionProvider>,
    );
  });
  await settle();
}

/** Lets the provider's requests and their state updates finish. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
  }
}

/**
 * Lets everything the provider could do on its own happen, timers aside: turns of the event loop for
 * 300 ms of real time, several times what a start takes here (the dynamic import of the device
 * details and a SHA-256 digest), before checking that something did not happen.
 */
async function quiet(): Promise<void> {
  const until = performance.now() + 300;
  while (performance.now() < until) {
    await act(async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
    });
  }
  await settle();
}

async function waitForStarts(count: number): Promise<void> {
  // The device details are a dynamic import: the start waits on it, not on a timer.
  await act(async () => {
    await vi.waitFor(() => {
      expect(starts()).toHaveLength(count);
    });
    await vi.advanceTimersByTimeAsync(0);
  });
  await settle();
  expect(current().sessionId).toBe(`session-${count}`);
}

async function fire(event: Event, target: EventTarget = window): Promise<void> {
  act(() => {
    target.dispatchEvent(event);
  });
  await settle();
}

async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  await settle();
}

beforeAll(async () => {
  await import('./device-details');
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.stubGlobal('fetch', serverFetch);
  sent = [];
  sessions = 0;
  session = null;
  window.sessionStorage.clear();
  window.localStorage.clear();
});

afterEach(() => {
  const mounted = root;
  root = null;
  if (mounted) {
    act(() => {
      mounted.unmount();
    });
  }
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the page session (visitor-behaviour §4.3)', () => {
  it('starts once on mount as INITIAL_LOAD, with the token and the device details, and keeps its id in the tab', async () => {
    await render();
    await waitForStarts(1);
    const [start] = starts();
    expect(start?.body).toMatchObject({ token: 'lead-token', startReason: 'INITIAL_LOAD' });
    expect(typeof start?.body.eventId).toBe('string');
    expect(start?.body.details).toEqual(expect.any(Object));
    expect(current().sessionId).toBe('session-1');
    expect(current().tracking).toBe(true);
    expect(window.sessionStorage.getItem(SESSION_ID_KEY)).toBe('session-1');
    // Rendering again starts nothing more.
    await render();
    await settle();
    expect(starts()).toHaveLength(1);
  });

  it('waits for the location lookup before starting', async () => {
    await render({ location: null });
    await quiet();
    expect(starts()).toHaveLength(0);
    await render({ location: LOCATION });
    await waitForStarts(1);
  });

  it('starts nothing without a lead token or with tracking off (a preview)', async () => {
    await render({ token: null });
    await quiet();
    await render({ token: 'lead-token', tracking: false });
    await quiet();
    await advance(TIMING.inactivityTimeout + 1_000);
    expect(sent).toEqual([]);
    expect(current().tracking).toBe(false);
    expect(current().sessionId).toBeNull();
  });

  it("reports the lead's IP once per page load", async () => {
    await render();
    await waitForStarts(1);
    await render({ location: { ...LOCATION } });
    await settle();
    const ips = sent.filter((s) => s.path === '/api/funnel/lead/ip');
    expect(ips).toEqual([
      expect.objectContaining({ method: 'POST', body: { token: 'lead-token', ip: '203.0.113.7' } }),
    ]);
  });

  it('ends as PAGE_CLOSE, kept alive, when the page hides, and starts again when it comes back from the cache', async () => {
    await render();
    await waitForStarts(1);
    await fire(new Event('pagehide'));
    expect(ends()).toEqual([
      {
        method: 'PUT',
        path: '/funnel/track/page/session-1',
        body: expect.objectContaining({ token: 'lead-token', endReason: 'PAGE_CLOSE' }) as unknown,
        keepalive: true,
      },
    ]);
    expect(current().sessionId).toBeNull();
    expect(window.sessionStorage.getItem(SESSION_ID_KEY)).toBeNull();

    // A page shown again without the back-forward cache is a new load: nothing here.
    await fire(new Event('pageshow'));
    expect(starts()).toHaveLength(1);
    await fire(Object.assign(new Event('pageshow'), { persisted: true }));
    await waitForStarts(2);
    expect(starts()[1]?.body.startReason).toBe('INITIAL_LOAD');
  });

  it('ends as INACTIVITY after 15 minutes without a click or a scroll, and asks the visitor', async () => {
    await render();
    await waitForStarts(1);
    await advance(TIMING.inactivityTimeout - 1_000);
    expect(ends()).toHaveLength(0);
    await advance(1_000);
    expect(ends().map((e) => [e.path, e.body.endReason])).toEqual([
      ['/funnel/track/page/session-1', 'INACTIVITY'],
    ]);
    expect(current().inactive).toBe(true);
    expect(current().sessionId).toBeNull();
    expect(window.sessionStorage.getItem(INACTIVE_FLAG_KEY)).toBe('1');
    // Asking is not a new session: nothing starts on its own.
    await advance(TIMING.inactivityTimeout * 2);
    expect(starts()).toHaveLength(1);
    expect(ends()).toHaveLength(1);
  });

  it('counts the 15 minutes again from every click and scroll', async () => {
    await render();
    await waitForStarts(1);
    await advance(TIMING.inactivityTimeout - 60_000);
    await fire(new MouseEvent('click', { bubbles: true }), document.body);
    await advance(TIMING.inactivityTimeout - 60_000);
    await fire(new Event('scroll'), document);
    await advance(TIMING.inactivityTimeout - 60_000);
    expect(ends()).toHaveLength(0);
    expect(current().inactive).toBe(false);
    await advance(60_000);
    expect(ends().map((e) => e.body.endReason)).toEqual(['INACTIVITY']);
  });

  it('does not count while a video plays, and counts again from when it stops', async () => {
    await render();
    await waitForStarts(1);
    act(() => {
      current().setVideoPlaying(true);
    });
    await advance(TIMING.inactivityTimeout * 3);
    expect(ends()).toHaveLength(0);
    act(() => {
      current().setVideoPlaying(false);
    });
    await advance(TIMING.inactivityTimeout - 1_000);
    expect(ends()).toHaveLength(0);
    await advance(1_000);
    expect(ends().map((e) => e.body.endReason)).toEqual(['INACTIVITY']);
  });

  it("'Continuar' starts an AFTER_INACTIVITY session, then resumes the page 100 ms later", async () => {
    await render();
    await waitForStarts(1);
    const resume = vi.fn();
    act(() => {
      current().setOnResume(resume);
    });
    await advance(TIMING.inactivityTimeout);
    expect(current().inactive).toBe(true);

    act(() => {
      current().continueAfterInactivity();
    });
    await waitForStarts(2);
    expect(starts()[1]?.body.startReason).toBe('AFTER_INACTIVITY');
    expect(current().inactive).toBe(false);
    expect(window.sessionStorage.getItem(INACTIVE_FLAG_KEY)).toBe('');
    expect(resume).not.toHaveBeenCalled();
    await advance(TIMING.resumeAfterInactivity);
    expect(resume).toHaveBeenCalledOnce();
    // The new session is watched for inactivity again.
    await advance(TIMING.inactivityTimeout);
    expect(ends().map((e) => [e.path, e.body.endReason])).toEqual([
      ['/funnel/track/page/session-1', 'INACTIVITY'],
      ['/funnel/track/page/session-2', 'INACTIVITY'],
    ]);
  });

  it('renew ends the session with its reason and starts the next as INITIAL_LOAD', async () => {
    await render();
    await waitForStarts(1);
    let next: string | null = null;
    await act(async () => {
      next = await current().renew('PAGE_CHANGE');
    });
    expect(next).toBe('session-2');
    expect(ends().map((e) => [e.path, e.body.endReason])).toEqual([
      ['/funnel/track/page/session-1', 'PAGE_CHANGE'],
    ]);
    expect(starts().map((s) => s.body.startReason)).toEqual(['INITIAL_LOAD', 'INITIAL_LOAD']);
    expect(current().sessionId).toBe('session-2');
  });

  it("keeps the ended session's id in the tab after VIDEO_ENDED_OFFERT only: the offer button still reports to it", async () => {
    await render();
    await waitForStarts(1);
    let ended = false;
    await act(async () => {
      ended = await current().end('VIDEO_ENDED_OFFERT');
    });
    expect(ended).toBe(true);
    expect(current().sessionId).toBeNull();
    expect(window.sessionStorage.getItem(SESSION_ID_KEY)).toBe('session-1');
    // Nothing open: a second end sends nothing.
    await act(async () => {
      ended = await current().end('BUTTON_CLICK');
    });
    expect(ended).toBe(false);
    expect(ends().map((e) => e.body.endReason)).toEqual(['VIDEO_ENDED_OFFERT']);

    await act(async () => {
      await current().renew('BUTTON_CLICK');
    });
    await settle();
    expect(current().sessionId).toBe('session-2');
    await act(async () => {
      await current().end('BUTTON_CLICK');
    });
    expect(window.sessionStorage.getItem(SESSION_ID_KEY)).toBeNull();
  });

  it('clears an inactivity flag left by an earlier load of the tab: a reload is the visitor back', async () => {
    window.sessionStorage.setItem(INACTIVE_FLAG_KEY, '1');
    await render();
    await waitForStarts(1);
    expect(window.sessionStorage.getItem(INACTIVE_FLAG_KEY)).toBe('');
    expect(current().inactive).toBe(false);
  });
});
