import type { PlayerAdapter, PlayerEvent } from '../player';

const HLS_TYPE = 'application/vnd.apple.mpegurl';

/**
 * The self-hosted player: a file the browser plays itself, or an HLS stream (`.m3u8`), played
 * natively where the browser can (Safari, recent Chromium) and through hls.js, loaded only then,
 * elsewhere.
 */
export const mountHtml5: PlayerAdapter = async (source, { container, startAt, onEvent }) => {
  const url = source.videoUrl;
  if (!url) throw new Error('a self-hosted video needs a URL');
  const video = document.createElement('video');
  video.className = 'video-element';
  video.controls = true;
  video.playsInline = true;
  video.preload = 'metadata';
  video.setAttribute('playsinline', '');

  const emit = (event: PlayerEvent) => {
    onEvent(event);
  };
  let started = false;
  const failed = new Promise<never>((_, reject) => {
    video.addEventListener('error', () => {
      const message = video.error?.message || `media error ${String(video.error?.code ?? '')}`;
      emit({ type: 'error', message });
      reject(new Error(message));
    });
  });
  const loaded = new Promise<void>((resolve) => {
    video.addEventListener(
      'loadedmetadata',
      () => {
        // The resume point, unless it lies beyond the end (visitor-behaviour §4.4: then the video starts at 0).
        if (startAt > 0 && startAt < video.duration) video.currentTime = startAt;
        emit({ type: 'duration', duration: video.duration });
        emit({ type: 'ready' });
        resolve();
      },
      { once: true },
    );
  });
  video.addEventListener('play', () => {
    started = true;
    emit({ type: 'play', time: video.currentTime });
  });
  video.addEventListener('pause', () => {
    // A video that reached its end pauses too; 'ended' says it better.
    if (!video.ended) emit({ type: 'pause', time: video.currentTime });
  });
  // From the moment a seek starts the position is already the target, and the browser sends a
  // timeupdate just before 'seeked': only 'seeked' reports the jump. `video.seeking` is true at once
  // (a timeupdate queued before the 'seeking' event must not report the target as played); the flag
  // covers that last timeupdate, sent after `video.seeking` is false again.
  let seeking = false;
  video.addEventListener('seeking', () => {
    seeking = true;
  });
  video.addEventListener('timeupdate', () => {
    if (started && !seeking && !video.seeking) emit({ type: 'timeupdate', time: video.currentTime });
  });
  video.addEventListener('seeked', () => {
    seeking = false;
    emit({ type: 'seeked', time: video.currentTime });
  });
  video.addEventListener('ended', () => {
    emit({ type: 'ended', time: video.currentTime });
  });
  video.addEventListener('durationchange', () => {
    if (Number.isFinite(video.duration)) emit({ type: 'duration', duration: video.duration });
  });

  let destroyHls = () => {};
  container.replaceChildren(video);
  if (isHls(url) && video.canPlayType(HLS_TYPE) === '') {
    const { default: Hls } = await import('hls.js');
    if (!Hls.isSupported()) throw new Error('this browser cannot play HLS');
    const hls = new Hls();
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (data.fatal) emit({ type: 'error', message: `HLS: ${data.details}` });
    });
    hls.loadSource(url);
    hls.attachMedia(video);
    destroyHls = () => {
      hls.destroy();
    };
  } else {
    video.src = url;
  }
  await Promise.race([loaded, failed]);

  return {
    play: () => video.play(),
    pause: () => {
      video.pause();
    },
    seek: (seconds) => {
      video.currentTime = seconds;
    },
    currentTime: () => video.currentTime,
    duration: () => (Number.isFinite(video.duration) ? video.duration : null),
    destroy: () => {
      destroyHls();
      video.removeAttribute('src');
      video.load();
      video.remove();
    },
  };
};

function isHls(url: string): boolean {
  try {
    return new URL(url, 'http://x').pathname.toLowerCase().endsWith('.m3u8');
  } catch {
    return false;
  }
}
