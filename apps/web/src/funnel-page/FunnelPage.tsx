import type { FunnelPageData } from '@embudo/contracts';
import { Suspense, useEffect, useMemo, useRef } from 'react';
import { useDeferredComponents } from '../app/deferred-components';
import { useButtonVisibility } from '../button/use-button-visibility';
import { Footer } from '../layout/Footer';
import { HeadlineBlock } from '../layout/HeadlineBlock';
import { LazyNextVideoOverlay, preloadModal } from '../modals/lazy';
import { ActionButton, BlockedWindow } from '../page-actions/ActionButton';
import { InactivityPrompt } from '../page-actions/InactivityPrompt';
import { usePageActions } from '../page-actions/use-page-actions';
import { fomoEnabled, fomoSite, validRange } from '../persuasion/persuasion-rules';
import { useSession } from '../tracking/SessionProvider';
import { newEventId, trackVideo } from '../tracking/tracking-api';
import type { PlayerEvent, PlayerHandle } from '../video/player';
import { createVideoTracker, resumePoint, type VideoRecord, type VideoTracker } from '../video/video-tracker';

/** Enough for minutes of playback before a slow session start; beyond that, the oldest are kept. */
const MAX_WAITING_RECORDS = 50;
import { VideoPlayer } from '../video/VideoPlayer';

/**
 * The main funnel page (visitor-behaviour §2.4): background image, headline block, video, call-to-action button
 * and footer, with the flows of visitor-behaviour §4.3 to §4.7. The timed persuasion elements arrive with their
 * own feature.
 */
export function FunnelPage({
  data,
  path,
  reload,
  children,
}: {
  data: FunnelPageData;
  path: string;
  reload: () => Promise<unknown>;
  children?: React.ReactNode;
}) {
  const session = useSession();
  const hasVideo = data.hostingVideo !== null && Boolean(data.videoUrl ?? data.videoId);
  const visibility = useButtonVisibility({
    pageId: data.idPage,
    buttonTime: data.buttonTime,
    isComplete: data.isComplete,
    silentPlayer: data.hostingVideo === 'EMBED',
    noVideo: !hasVideo,
  });
  const player = useRef<PlayerHandle | null>(null);
  const tracker = useVideoTracker(data, session);
  const actions = usePageActions({
    data,
    reload,
    buttonVisible: visibility.visible,
    flushVideo: () => tracker.current?.flush(),
  });

  const { setVideoPlaying, setOnResume } = session;
  const { onPlayerEvent } = visibility;
  const { onVideoEnded } = actions;
  const onEvent = (event: PlayerEvent) => {
    tracker.current?.handle(event);
    onPlayerEvent(event);
    if (event.type === 'play') {
      setVideoPlaying(true);
      if (data.buttonAction === 'NEXT-PAGE') preloadModal('nextVideo');
    }
    if (event.type === 'pause' || event.type === 'ended') setVideoPlaying(false);
    if (event.type === 'ended') void onVideoEnded();
  };

  // 'Continuar' after inactivity plays the video again (visitor-behaviour §4.3).
  useEffect(() => {
    setOnResume(() => {
      void player.current?.play().catch(() => undefined);
    });
    return () => {
      setOnResume(null);
    };
  }, [setOnResume]);

  const startAt = useMemo(
    () => resumePoint(data.lastVideoSession?.endTimeVideo, null),
    // The resume point of the page as it was loaded; later reports do not move the player.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data.idPage],
  );
  // The same range object while the setting stays, so the count's element is left alone.
  const onlineRange = useMemo(
    () => (data.isFakeUserOnlineOn ? validRange(data.fakeUserRange) : null),
    [data.isFakeUserOnlineOn, data.fakeUserRange],
  );
  const { FakeProgressBar, CountdownBanner, OnlineCount, FomoPopups } = useDeferredComponents();

  return (
    <div
      className="funnel"
      style={data.bgImageUrl ? { backgroundImage: `url(${JSON.stringify(data.bgImageUrl)})` } : undefined}
    >
      <main className="funnel-page">
        {data.showFakeProgress ? (
          <FakeProgressBar percent={data.barProgressPercent} textColor={data.barProgressTextColor} />
        ) : null}
        {data.countDownTime ? <CountdownBanner deadline={data.countDownTime} /> : null}
        <HeadlineBlock data={data} />
        {hasVideo && data.hostingVideo ? (
          <VideoPlayer
            key={data.idPage}
            source={{
              hostingVideo: data.hostingVideo,
              videoId: data.videoId,
              videoUrl: data.videoUrl,
              videoLibrary: data.videoLibrary,
            }}
            startAt={startAt}
            onEvent={onEvent}
            onHandle={(handle) => {
              player.current = handle;
            }}
          />
        ) : null}
        <ActionButton data={data} visible={visibility.visible} actions={actions} />
        {onlineRange ? <OnlineCount range={onlineRange} /> : null}
        {children}
      </main>
      {fomoEnabled(data) ? (
        <FomoPopups idFunnel={data.idFunnel} site={fomoSite(data)} location={session.location} />
      ) : null}
      <Footer path={path} chat={false} />
      <BlockedWindow actions={actions} />
      <InactivityPrompt />
      <Suspense fallback={null}>
        {actions.nextVideo ? <LazyNextVideoOverlay visible onDone={actions.onNextVideoDone} /> : null}
      </Suspense>
    </div>
  );
}

/**
 * The page's video records (visitor-behaviour §4.4), sent with the open session; none in preview, none on a
 * completed OFFERT page (visitor-behaviour §5). Hiding or closing the page ends the stretch as INTERRUPTED.
 */
function useVideoTracker(data: FunnelPageData, session: ReturnType<typeof useSession>) {
  const tracker = useRef<VideoTracker | null>(null);
  const { token, sessionId, tracking } = session;
  const target = useRef({ token, sessionId, tracking });
  /** Records made before the session has its id (a visitor who plays at once): sent once it has. */
  const waiting = useRef<VideoRecord[]>([]);
  useEffect(() => {
    target.current = { token, sessionId, tracking };
    if (!tracking || !token) waiting.current = [];
    if (!tracking || !token || !sessionId) return;
    for (const record of waiting.current.splice(0)) {
      trackVideo({ ...record, token, idTrackingPageSession: sessionId, eventId: newEventId() });
    }
  }, [token, sessionId, tracking]);

  useEffect(() => {
    const created = createVideoTracker({
      now: () => Date.now(),
      periodic: data.hostingVideo === 'PANDA',
      send: (record) => {
        const { token, sessionId, tracking } = target.current;
        if (!tracking || !token) return;
        if (!sessionId) {
          if (waiting.current.length < MAX_WAITING_RECORDS) waiting.current.push(record);
          return;
        }
        trackVideo({ ...record, token, idTrackingPageSession: sessionId, eventId: newEventId() });
      },
    });
    tracker.current = created;
    const onHidden = () => {
      if (document.visibilityState === 'hidden') created.interrupt();
    };
    const onPageHide = () => {
      created.interrupt();
    };
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', onPageHide);
      created.dispose();
      tracker.current = null;
    };
  }, [data.idPage, data.hostingVideo]);
  return tracker;
}
