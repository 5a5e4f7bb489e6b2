import { useEffect, useRef, useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { loadAdapter } from './load-adapter';
import type { PlayerEvent, PlayerHandle, VideoSource } from './player';
import { VideoErrorPanel } from './VideoErrorPanel';

export interface VideoPlayerProps {
  source: VideoSource;
  /** Where playback starts (the resume point of visitor-behaviour §4.4), in seconds. */
  startAt: number;
  onEvent: (event: PlayerEvent) => void;
  /** The mounted player, for the page's commands (resume after inactivity); null once gone. */
  onHandle: (handle: PlayerHandle | null) => void;
}

/**
 * The page's video (visitor-behaviour §2.4): a 16:9 frame, at most 1000 px wide, reserved in the server's HTML so
 * nothing moves when the player arrives. The provider's player loads after the first paint, never in
 * front of the headline; until then the frame shows a play facade. A provider that fails to load, or
 * a video that cannot play, shows 'Error al cargar video' (visitor-behaviour §2.5, §8).
 */
export function VideoPlayer({ source, startAt, onEvent, onHandle }: VideoPlayerProps) {
  const t = useT();
  const mount = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'waiting' | 'ready' | 'failed'>('waiting');
  // The latest callbacks, for a player that outlives renders.
  const listener = useRef(onEvent);
  const handleListener = useRef(onHandle);
  useEffect(() => {
    listener.current = onEvent;
    handleListener.current = onHandle;
  });
  const { hostingVideo, videoId, videoUrl, videoLibrary } = source;

  useEffect(() => {
    const container = mount.current;
    if (!container) return;
    let handle: PlayerHandle | null = null;
    let gone = false;
    let resumeChecked = false;
    const emit = (event: PlayerEvent) => {
      if (gone) return;
      if (event.type === 'error') setState('failed');
      // A resume point beyond the end starts the video from 0 (visitor-behaviour §4.4).
      if (event.type === 'duration' && !resumeChecked && handle) {
        resumeChecked = true;
        if (startAt >= event.duration && handle.currentTime() > 0) handle.seek(0);
      }
      listener.current(event);
    };
    // After the first paint: the next frame, then a task.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        const source = { hostingVideo, videoId, videoUrl, videoLibrary };
        loadAdapter(hostingVideo)
          .then((adapter) => adapter(source, { container, startAt, onEvent: emit }))
          .then((mounted) => {
            if (gone) {
              mounted.destroy();
              return;
            }
            handle = mounted;
            setState('ready');
            handleListener.current(mounted);
          })
          .catch((error: unknown) => {
            console.error('Error al cargar video', error);
            // The page hears of it as of any player error: the button's wall-clock fallback starts.
            emit({ type: 'error', message: error instanceof Error ? error.message : String(error) });
          });
      }, 0);
    });
    return () => {
      gone = true;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      handle?.destroy();
      handleListener.current(null);
    };
  }, [hostingVideo, videoId, videoUrl, videoLibrary, startAt]);

  return (
    <div className="video-frame">
      <div ref={mount} className="video-mount" />
      {state === 'failed' ? <VideoErrorPanel /> : null}
      {state === 'waiting' ? (
        <div className="video-facade" role="img" aria-label={t('video.loading')}>
          <span className="video-facade-play" aria-hidden="true" />
        </div>
      ) : null}
    </div>
  );
}
