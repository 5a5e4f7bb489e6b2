import { createVideoDouble, recordReceived } from './video-double';

/**
 * Stand-in for https://player-vz-<library>.tv.pandavideo.com.br/embed/?v=<videoId>: a real <video>
 * behind Panda's postMessage API.
 *   here → parent: `{message:'panda_<event>', video:<videoId>}`; panda_timeupdate adds `currentTime`
 *   and is accompanied by panda_allData `{playerData:{currentTime, duration, paused, …}}`, which is
 *   also sent with panda_ready. Like the real player, play/pause/seeked/ended carry no time.
 *   parent → here: `{type:'play'|'pause'|'togglePlay'}`, `{type:'currentTime'|'volume', parameter}`.
 */

const videoId = new URLSearchParams(location.search).get('v') ?? '';
const video = createVideoDouble(document.body);
let ready = false;

function post(message: string, extra: Record<string, unknown> = {}): void {
  window.parent.postMessage({ message, video: videoId, ...extra }, '*');
}

function allData(): void {
  post('panda_allData', {
    playerData: {
      currentTime: video.currentTime,
      duration: Number.isFinite(video.duration) ? video.duration : 0,
      paused: video.paused,
      ended: video.ended,
      volume: video.volume,
      muted: video.muted,
      playbackRate: video.playbackRate,
    },
  });
}

video.addEventListener('loadedmetadata', () => {
  if (ready) return;
  ready = true;
  post('panda_ready');
  allData();
});
video.addEventListener('timeupdate', () => {
  post('panda_timeupdate', { currentTime: video.currentTime });
  allData();
});
for (const event of ['play', 'pause', 'seeking', 'seeked', 'ended', 'canplay'] as const) {
  video.addEventListener(event, () => {
    post(`panda_${event}`);
  });
}
video.addEventListener('error', () => {
  post('panda_error');
});

window.addEventListener('message', (event) => {
  if (event.source !== window.parent) return;
  recordReceived({ origin: event.origin, data: event.data as unknown });
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null) return;
  const { type, parameter } = data as { type?: unknown; parameter?: unknown };
  switch (type) {
    case 'play':
      video.play().catch(() => {
        post('panda_error');
      });
      return;
    case 'pause':
      video.pause();
      return;
    case 'togglePlay':
      if (video.paused) void video.play();
      else video.pause();
      return;
    case 'currentTime':
      if (typeof parameter === 'number' && Number.isFinite(parameter)) video.currentTime = parameter;
      return;
    case 'volume':
      if (typeof parameter === 'number') video.volume = Math.min(1, Math.max(0, parameter));
      return;
    default:
      return;
  }
});
