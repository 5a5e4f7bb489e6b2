import type { FunnelPageData } from '@embudo/contracts';
import { TIMING } from '@embudo/contracts/runtime';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isoWithOffset, withPreviewToken, withScheme } from '../lib/links';
import { useSession } from '../tracking/SessionProvider';
import {
  prelaunchConversion,
  reportVideoViewed,
  trackAction,
  trackOffertEvent,
  trackPixel,
} from '../tracking/tracking-api';

export interface PageActionsInput {
  data: FunnelPageData;
  /** Fetch the page data again (the lead may be on another page now). */
  reload: () => Promise<unknown>;
  /** The button is on screen. */
  buttonVisible: boolean;
  /** Report what the video has played so far (before leaving the page). */
  flushVideo: () => void;
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

/**
 * What the page does when its video ends (visitor-behaviour §4.6) and when the button is clicked or shown
 * (visitor-behaviour §4.7): open the link, go to the next page with a renewed session, or record the offer.
 */
export function usePageActions({ data, reload, buttonVisible, flushVideo }: PageActionsInput) {
  const session = useSession();
  const [blockedUrl, setBlockedUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [nextVideo, setNextVideo] = useState(false);
  const preview = data.previewToken !== null;
  const { token, sessionId, tracking } = session;
  /** "Video viewed" is sent once per page, whichever flow gets there first. */
  const viewedFor = useRef<string | null>(null);

  const markViewed = useCallback(async () => {
    if (!token || data.isComplete || viewedFor.current === data.idPage) return true;
    viewedFor.current = data.idPage;
    const answer = await reportVideoViewed(token, data.idPage);
    return answer.result;
  }, [token, data.isComplete, data.idPage]);

  const nextPreview = useCallback(() => {
    const next = data.action.nextPreviewPageToken;
    if (next) window.location.assign(withPreviewToken(window.location.href, next));
  }, [data.action.nextPreviewPageToken]);

  const track = useCallback(
    (action: string, details: Record<string, unknown> = {}) =>
      tracking && token && sessionId
        ? trackAction({
            token,
            idTrackingPageSession: sessionId,
            action,
            timestamp: isoWithOffset(new Date()),
            details: { idPage: data.idPage, buttonAction: data.buttonAction, ...details },
          })
        : Promise.resolve(null),
    [tracking, token, sessionId, data.idPage, data.buttonAction],
  );

  /** Leave for the next page: renew the session, load the new page, back to the top. */
  const goToNextPage = useCallback(
    async (endReason: 'VIDEO_ENDED' | 'BUTTON_CLICK') => {
      // A session that cannot be renewed stops the flow (visitor-behaviour §4.3).
      const renewed = await session.renew(endReason);
      if (!renewed) return;
      await reload();
      window.scrollTo({ top: 0 });
    },
    [session, reload],
  );

  const onVideoEnded = useCallback(async () => {
    if (preview) {
      if (data.buttonAction === 'NEXT-PAGE') nextPreview();
      return;
    }
    if (!tracking) return;
    await markViewed();
    if (data.buttonAction === 'NEXT-PAGE') {
      // The countdown overlay runs first; it calls `onNextVideoDone` at 0.
      setNextVideo(true);
      return;
    }
    if (data.buttonAction === 'OFFERT') await session.end('VIDEO_ENDED_OFFERT');
    await reload();
  }, [preview, tracking, data.buttonAction, nextPreview, markViewed, session, reload]);

  const onNextVideoDone = useCallback(() => {
    setNextVideo(false);
    void goToNextPage('VIDEO_ENDED');
  }, [goToNextPage]);

  const onClick = useCallback(async () => {
    if (busy) return;
    setBusy(true);
    try {
      const { method, url } = data.action;
      if (method === 'OPEN-WINDOW' && url) {
        const target = withScheme(url);
        if (data.buttonAction === 'LPI-REDIRECT-WPP') {
          // The pixel call goes before the chat redirect, in the same tab (visitor-behaviour §4.7); only a lead's
          // page makes it, naming itself without the lead's token (tracking-api.ts).
          if (!preview) {
            await Promise.all([
              token
                ? trackPixel({
                    idFunnel: data.idFunnel,
                    token,
                    eventSource: window.location.href,
                    agent: navigator.userAgent,
                  })
                : null,
              track('BUTTON_CLICK', { url: target }),
            ]);
          }
          window.location.assign(target);
          return;
        }
        const opened = window.open(target, '_blank');
        if (opened) opened.opener = null;
        else setBlockedUrl(target);
        void track('BUTTON_CLICK', { url: target });
        return;
      }
      if (preview) {
        nextPreview();
        return;
      }
      if (data.buttonAction === 'NEXT-PAGE') {
        flushVideo();
        await sleep(TIMING.postClickWait);
      }
      await track('BUTTON_CLICK');
      window.scrollTo({ top: 0 });
      await markViewed();
      await goToNextPage('BUTTON_CLICK');
    } finally {
      setBusy(false);
    }
  }, [busy, data, preview, token, track, nextPreview, flushVideo, markViewed, goToNextPage]);

  // The offer button shown: the offer is recorded once, then the session ends as OFFERT (visitor-behaviour §4.7).
  const offerDoneFor = useRef<string | null>(null);
  useEffect(() => {
    if (!buttonVisible || data.buttonAction !== 'OFFERT' || preview || !token) return;
    if (offerDoneFor.current === data.idPage) return;
    offerDoneFor.current = data.idPage;
    void (async () => {
      if (!data.isComplete && (await markViewed())) await trackOffertEvent(token);
      if (data.isPreLaunch) await prelaunchConversion(token);
      await session.end('OFFERT');
    })();
  }, [buttonVisible, data, preview, token, markViewed, session]);

  return {
    onVideoEnded,
    onClick,
    busy,
    blockedUrl,
    closeBlocked: () => {
      setBlockedUrl(null);
    },
    nextVideo,
    onNextVideoDone,
  };
}
