import { createVideoDouble, recordReceived } from './video-double';

/**
 * Stand-in for https://player.vimeo.com/video/<id>?h=<hash>: a real <video> behind Vimeo's player
 * postMessage protocol, as `@vimeo/player` (node_modules/@vimeo/player/src) speaks it.
 *   parent → here: `{method, value?}` (objects, or JSON strings from old browsers).
 *   here → parent: `{event:'ready'}` once the player can take commands; `{event, data}` for every event
 *   the parent subscribed to with `addEventListener` (data `{seconds, percent, duration}` for playback
 *   events); `{method, value?}` replies; `{event:'error', data:{method, name, message}}` for a failed call.
 * Messages carry `player_id` when the embed URL set one (the old Froogaloop convention).
 */

const videoId = Number(/^\/video\/(\d+)/.exec(location.pathname)?.[1] ?? 0);
const playerId = new URLSearchParams(location.search).get('player_id');
const video = createVideoDouble(document.body);
const listened = new Set<string>();
let ready = false;

function post(message: Record<string, unknown>): void {
  // Vimeo's player does not know who embeds it: it answers its parent window.
  window.parent.postMessage(playerId ? { ...message, player_id: playerId } : message, '*');
}

function timing(): { seconds: number; percent: number; duration: number } {
  const duration = Number.isFinite(video.duration) ? video.duration : 0;
  const seconds = video.currentTime;
  return { seconds, percent: duration > 0 ? Math.round((seconds / duration) * 1000) / 1000 : 0, duration };
}

function fire(event: string, data: unknown): void {
  if (listened.has(event)) post({ event, data });
}

function reply(method: string, value?: unknown): void {
  post(value === undefined ? { method } : { method, value });
}

function fail(method: string, name: string, message: string): void {
  post({ event: 'error', data: { method, name, message } });
}

for (const event of ['play', 'playing', 'pause', 'ended', 'timeupdate', 'seeking', 'seeked'] as const) {
  video.addEventListener(event, () => {
    fire(event, timing());
  });
}
video.addEventListener('durationchange', () => {
  fire('durationchange', { duration: video.duration });
});
video.addEventListener('loadedmetadata', () => {
  if (ready) return;
  ready = true;
  post({ event: 'ready' });
  fire('loaded', { id: videoId });
});
video.addEventListener('error', () => {
  fire('error', { method: 'ready', name: 'MediaError', message: video.error?.message ?? 'media error' });
});

function parse(data: unknown): { method: string; value: unknown } | null {
  let message = data;
  if (typeof message === 'string') {
    try {
      message = JSON.parse(message);
    } catch {
      return null;
    }
  }
  if (typeof message !== 'object' || message === null) return null;
  const record = message as Record<string, unknown>;
  return typeof record.method === 'string' ? { method: record.method, value: record.value } : null;
}

window.addEventListener('message', (event) => {
  if (event.source !== window.parent) return;
  recordReceived({ origin: event.origin, data: event.data as unknown });
  const message = parse(event.data);
  if (!message) return;
  const { method, value } = message;
  switch (method) {
    case 'ping':
      if (ready) reply('ping');
      return;
    case 'addEventListener':
      if (typeof value === 'string') listened.add(value);
      reply(method);
      return;
    case 'removeEventListener':
      if (typeof value === 'string') listened.delete(value);
      reply(method);
      return;
    case 'play':
      video.play().then(
        () => {
          reply(method);
        },
        (error: unknown) => {
          fail(method, error instanceof Error ? error.name : 'Error', String(error));
        },
      );
      return;
    case 'pause':
      video.pause();
      reply(method);
      return;
    case 'setCurrentTime':
      if (typeof value !== 'number' || value < 0 || value > video.duration) {
        fail(method, 'RangeError', 'Seconds must be a positive number less than the duration of the video.');
        return;
      }
      video.currentTime = value;
      reply(method, value);
      return;
    case 'getCurrentTime':
      reply(method, video.currentTime);
      return;
    case 'getDuration':
      reply(method, video.duration);
      return;
    case 'getPaused':
      reply(method, video.paused);
      return;
    case 'getEnded':
      reply(method, video.ended);
      return;
    case 'getVideoId':
      reply(method, videoId);
      return;
    default:
      fail(method, 'TypeError', `The “${method}” method does not exist.`);
  }
});
