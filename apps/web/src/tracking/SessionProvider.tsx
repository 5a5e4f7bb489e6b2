import type { EndReason, SessionDetails, StartReason } from '@embudo/contracts';
import { TIMING } from '@embudo/contracts/runtime';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { writeSessionValue } from '../lib/session-value';
import { browserStorage } from '../lib/browser-storage';
import { endPageSession, newEventId, reportLeadIp, startPageSession } from './tracking-api';
import { deviceId, recordVisit } from './visitor-storage';

/** The page session of this tab (visitor-behaviour §3 "Session (client-side)"), kept per tab. */
export const SESSION_ID_KEY = 'embudo:tracking-session';
/** Set while the visitor has been idle long enough to end the session (visitor-behaviour §4.3). */
export const INACTIVE_FLAG_KEY = 'embudo:inactive';

export interface SessionApi {
  /** The open page session, or null (none yet, ended, or tracking is off). */
  sessionId: string | null;
  token: string | null;
  /** Tracking is on: a lead's link, not a preview, and not a completed OFFERT page (visitor-behaviour §4.3, §5). */
  tracking: boolean;
  /** End the session and start the next one; null when no new session could be started. */
  renew: (endReason: EndReason) => Promise<string | null>;
  end: (endReason: EndReason) => Promise<boolean>;
  /** The inactivity timer does not count while a video plays (visitor-behaviour §4.3). */
  setVideoPlaying: (playing: boolean) => void;
  /** The visitor was idle for 15 minutes: the inactivity modal is open. */
  inactive: boolean;
  /** 'Continuar': a new AFTER_INACTIVITY session, then `onResume` after 100 ms. */
  continueAfterInactivity: () => void;
  /** What runs once the visitor came back (the page resumes its video). */
  setOnResume: (run: (() => void) | null) => void;
  /** The visitor's location ({} when unknown or not looked up); null while the lookup runs. */
  location: Record<string, unknown> | null;
}

const SessionContext = createContext<SessionApi | null>(null);

export function useSession(): SessionApi {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used within a SessionProvider');
  return value;
}

export interface SessionProviderProps {
  token: string | null;
  tracking: boolean;
  /** The visitor's location once looked up ({} when unknown); null while the lookup runs. */
  location: Record<string, unknown> | null;
  children: React.ReactNode;
}

/** Counted once per page load: a renewal within the page is the same visit. */
let visitOfThisLoad: ReturnType<typeof recordVisit> | null = null;

/**
 * The tracking session of visitor-behaviour §4.3: started once the token and the device data are ready, ended
 * with its reason (PAGE_CLOSE when the page closes, kept alive), renewed on page changes, ended by 15
 * minutes without click or scroll.
 */
export function SessionProvider({ token, tracking, location, children }: SessionProviderProps) {
  const [sessionId, setSessionId] = useState<string | null>(null);
  // The question is this page load's: a reload is the visitor back, so it starts a fresh session
  // (the stored flag, visitor-behaviour §4.3, says what happened; a new load clears it).
  const [inactive, setInactive] = useState(false);
  const inactiveRef = useRef(false);
  const sessionRef = useRef<string | null>(null);
  const starting = useRef<Promise<string | null> | null>(null);
  const details = useRef<Promise<SessionDetails> | null>(null);
  const onResume = useRef<(() => void) | null>(null);
  const videoPlaying = useRef(false);
  const active = tracking && token !== null;

  const deviceDetails = useCallback((): Promise<SessionDetails> => {
    if (!details.current) {
      const storage = browserStorage('local');
      const now = Date.now();
      visitOfThisLoad ??= recordVisit(storage, now);
      const visit = visitOfThisLoad;
      // Loaded after the first paint: the page never waits for the device code.
      details.current = import('./device-details').then(({ collectDeviceDetails, readBrowserEnvironment }) =>
        collectDeviceDetails(readBrowserEnvironment(), {
          sessionCount: visit.count,
          visitorType: visit.visitorType,
          deviceId: deviceId(storage, now),
          location: location ?? {},
        }),
      );
    }
    return details.current;
  }, [location]);

  const remember = (id: string | null) => {
    sessionRef.current = id;
    setSessionId(id);
    const storage = browserStorage('session');
    try {
      if (id) storage?.setItem(SESSION_ID_KEY, id);
    } catch {
      // Storage full or blocked: the id lives in memory only.
    }
  };

  const start = useCallback(
    (startReason: StartReason): Promise<string | null> => {
      if (!active || !token) return Promise.resolve(null);
      starting.current ??= (async () => {
        const id = await startPageSession({
          token,
          eventId: newEventId(),
          start: Date.now(),
          startReason,
          details: await deviceDetails(),
        });
        remember(id);
        starting.current = null;
        return id;
      })();
      return starting.current;
    },
    [active, token, deviceDetails],
  );

  const end = useCallback(
    async (endReason: EndReason): Promise<boolean> => {
      const id = sessionRef.current;
      if (!id || !token) return false;
      sessionRef.current = null;
      setSessionId(null);
      // The id stays for VIDEO_ENDED_OFFERT: the offer button still reports to that session.
      if (endReason !== 'VIDEO_ENDED_OFFERT') {
        try {
          browserStorage('session')?.removeItem(SESSION_ID_KEY);
        } catch {
          // Nothing stored.
        }
      }
      return endPageSession(id, { token, end: Date.now(), endReason, details: {} });
    },
    [token],
  );

  const renew = useCallback(
    async (endReason: EndReason) => {
      await end(endReason);
      return start('INITIAL_LOAD');
    },
    [end, start],
  );

  // A flag left by an earlier load of this tab is not this load's: the visitor came back.
  useEffect(() => {
    if (readFlag()) writeFlag(false);
  }, []);

  // Start once the location lookup is done and no session is open (visitor-behaviour §4.3).
  useEffect(() => {
    if (!active || location === null || inactive) return;
    if (sessionRef.current === null) void start('INITIAL_LOAD');
  }, [active, location, inactive, start]);

  // The lead's IP, once per page load, when both are known (visitor-behaviour §7 "Lead IP").
  const ipReported = useRef(false);
  useEffect(() => {
    const ip = location?.ip;
    if (!active || !token || ipReported.current || typeof ip !== 'string') return;
    ipReported.current = true;
    void reportLeadIp(token, ip);
  }, [active, location, token]);

  // The page closes: the session ends as PAGE_CLOSE, sent kept alive (visitor-behaviour §4.3, §7).
  useEffect(() => {
    if (!active) return;
    const onPageHide = () => {
      void end('PAGE_CLOSE');
    };
    const onPageShow = (event: PageTransitionEvent) => {
      // Back from the back-forward cache: a new visit of the page.
      if (event.persisted && sessionRef.current === null && !inactiveRef.current) void start('INITIAL_LOAD');
    };
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, [active, end, start]);

  const markInactive = useCallback((on: boolean) => {
    inactiveRef.current = on;
    setInactive(on);
    writeFlag(on);
  }, []);

  // 15 minutes without click or scroll end the session, unless a video plays (visitor-behaviour §4.3, §9).
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const arm = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    if (!active || videoPlaying.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      if (videoPlaying.current || sessionRef.current === null) return;
      markInactive(true);
      void end('INACTIVITY');
    }, TIMING.inactivityTimeout);
  }, [active, end, markInactive]);

  useEffect(() => {
    if (!active || inactive) return;
    arm();
    const reset = () => {
      arm();
    };
    window.addEventListener('click', reset, { capture: true, passive: true });
    window.addEventListener('scroll', reset, { capture: true, passive: true });
    return () => {
      window.removeEventListener('click', reset, { capture: true });
      window.removeEventListener('scroll', reset, { capture: true });
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
    };
  }, [active, inactive, arm, sessionId]);

  const setVideoPlaying = useCallback(
    (playing: boolean) => {
      videoPlaying.current = playing;
      arm();
    },
    [arm],
  );

  const continueAfterInactivity = useCallback(() => {
    markInactive(false);
    void start('AFTER_INACTIVITY').then(() => {
      setTimeout(() => onResume.current?.(), TIMING.resumeAfterInactivity);
    });
  }, [start, markInactive]);

  const value = useMemo<SessionApi>(
    () => ({
      sessionId,
      token,
      tracking: active,
      renew,
      end,
      setVideoPlaying,
      inactive,
      continueAfterInactivity,
      setOnResume: (run) => {
        onResume.current = run;
      },
      location,
    }),
    [sessionId, token, active, renew, end, setVideoPlaying, inactive, continueAfterInactivity, location],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

function readFlag(): boolean {
  try {
    return browserStorage('session')?.getItem(INACTIVE_FLAG_KEY) === '1';
  } catch {
    return false;
  }
}

function writeFlag(on: boolean): void {
  try {
    writeSessionValue(INACTIVE_FLAG_KEY, on ? '1' : '');
  } catch {
    // Blocked storage: the flag lives in this page only.
  }
}
