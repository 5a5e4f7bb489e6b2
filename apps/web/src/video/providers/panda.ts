import { type PlayerAdapter, type PlayerEvent, type PlayerHandle, PROVIDER_LOAD_TIMEOUT_MS } from '../player';
import { pandaEmbedUrl } from '@embudo/contracts/runtime';
import { playerFrame, refuseSource } from './adapter-kit';

/**
 * Panda Video: an iframe `https://player-vz-<library>.tv.pandavideo.com.br/embed/?v=<videoId>` that
 * talks with its parent by window.postMessage (Panda's "receive events" / "send events" API).
 *   - iframe → parent: `{message:'panda_<name>', video:<videoId>, currentTime?}`; `panda_allData`
 *     carries `playerData: {currentTime, duration, paused, …}` (panda_timeupdate has no duration).
 *   - parent → iframe: `{type:'play'}`, `{type:'pause'}`, `{type:'currentTime', parameter:<seconds>}`.
 * Messages are accepted only from the embed's origin and from this iframe's window; commands are
 * posted to that same origin.
 *
 * What maps to which PlayerEvent:
 *   panda_ready (or the first panda_allData) → ready;  panda_allData playerData.duration → duration
 *   panda_play / panda_pause / panda_timeupdate / panda_seeked / panda_ended → play / pause /
 *   timeupdate / seeked / ended (time from `currentTime`);  panda_error → error (before ready: reject)
 * The seek that honours `startAt` is not reported as `seeked`: it is not the visitor skipping.
 *
 * Panda is the provider of visitor-behaviour §4.4 that also reports progress every 30 s. That report is the page's
 * tracker's job (it owns the timer and the call); this adapter only supplies the timeupdate events.
 */

interface PandaMessage {
  message: string;
  video: string | null;
  currentTime: number | null;
  duration: number | null;
}

function finiteSeconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** Message data is untrusted input: keep only the fields this adapter reads, with their types. */
export function parsePandaMessage(raw: unknown): PandaMessage | null {
  let data: unknown = raw;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  if (typeof record.message !== 'string' || !record.message.startsWith('panda_')) return null;
  const playerData =
    typeof record.playerData === 'object' && record.playerData !== null
      ? (record.playerData as Record<string, unknown>)
      : {};
  return {
    message: record.message,
    video: typeof record.video === 'string' ? record.video : null,
    currentTime: finiteSeconds(record.currentTime) ?? finiteSeconds(playerData.currentTime),
    duration: finiteSeconds(record.duration) ?? finiteSeconds(playerData.duration),
  };
}

type PandaCommand = { type: 'play' } | { type: 'pause' } | { type: 'currentTime'; parameter: number };

export const mountPanda: PlayerAdapter = (source, { container, startAt, onEvent }) => {
  const url = pandaEmbedUrl(source);
  if (!url) {
    // visitor-behaviour §5 and §8: an invalid Panda URL is logged.
    return refuseSource(
      'Invalid Panda video URL',
      source.videoUrl ?? { id: source.videoId, library: source.videoLibrary },
    );
  }
  const origin = url.origin;
  const videoId = url.searchParams.get('v');

  const iframe = playerFrame(
    url.toString(),
    'accelerometer; gyroscope; autoplay; encrypted-media; picture-in-picture; fullscreen',
  );

  let destroyed = false;
  let ready = false;
  let time = 0;
  let duration: number | null = null;
  // The position the resume seek goes to: the seeked event that lands there is not the visitor's.
  let initialSeek: number | null = null;
  // The resume point waits for the duration (beyond it, the video restarts at 0, visitor-behaviour §4.4); if none
  // is known by the time the video plays, it is applied as is.
  let startPending = startAt > 0;
  // panda_seeked names no time: the target of this adapter's last seek stands in for it.
  let seekTarget: number | null = null;

  const emit = (event: PlayerEvent) => {
    if (!destroyed) onEvent(event);
  };
  const send = (command: PandaCommand) => {
    iframe.contentWindow?.postMessage(command, origin);
  };
  const setDuration = (value: number | null) => {
    if (value === null || value <= 0 || value === duration) return;
    duration = value;
    emit({ type: 'duration', duration: value });
  };
  const applyStart = (evenWithoutDuration: boolean) => {
    if (!startPending || (duration === null && !evenWithoutDuration)) return;
    startPending = false;
    if (duration !== null && startAt >= duration) return;
    initialSeek = startAt;
    seekTarget = startAt;
    send({ type: 'currentTime', parameter: startAt });
  };

  return new Promise<PlayerHandle>((resolve, reject) => {
    const timer = setTimeout(() => {
      fail('The Panda player did not load in time');
    }, PROVIDER_LOAD_TIMEOUT_MS);

    const teardown = () => {
      destroyed = true;
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      iframe.remove();
    };
    const fail = (message: string) => {
      teardown();
      reject(new Error(message));
    };

    const handle: PlayerHandle = {
      play: () => {
        // Panda does not answer commands; the play event follows when the player obeys.
        applyStart(true);
        send({ type: 'play' });
        return Promise.resolve();
      },
      pause: () => {
        send({ type: 'pause' });
      },
      seek: (seconds) => {
        seekTarget = Math.max(0, seconds);
        send({ type: 'currentTime', parameter: seekTarget });
      },
      currentTime: () => time,
      duration: () => duration,
      destroy: teardown,
    };

    const becomeReady = () => {
      ready = true;
      clearTimeout(timer);
      emit({ type: 'ready' });
      if (duration !== null) emit({ type: 'duration', duration });
      applyStart(false);
      resolve(handle);
    };

    function onMessage(event: MessageEvent) {
      if (event.origin !== origin || event.source !== iframe.contentWindow || destroyed) return;
      const data = parsePandaMessage(event.data);
      // Several Panda players may share a page: each message names its video.
      if (!data || (data.video !== null && data.video !== videoId)) return;
      if (data.currentTime !== null) time = data.currentTime;

      switch (data.message) {
        case 'panda_ready':
          if (!ready) becomeReady();
          return;
        case 'panda_allData':
          if (ready) {
            setDuration(data.duration);
            applyStart(false);
          } else {
            duration = data.duration !== null && data.duration > 0 ? data.duration : null;
            becomeReady();
          }
          return;
        case 'panda_play':
          applyStart(true);
          if (ready) emit({ type: 'play', time });
          return;
        case 'panda_pause':
          if (ready) emit({ type: 'pause', time });
          return;
        case 'panda_timeupdate':
          if (ready) emit({ type: 'timeupdate', time });
          return;
        case 'panda_seeked':
          if (data.currentTime === null && seekTarget !== null) time = seekTarget;
          seekTarget = null;
          if (initialSeek === null || Math.abs(time - initialSeek) >= 0.5) {
            if (ready) emit({ type: 'seeked', time });
          }
          initialSeek = null;
          return;
        case 'panda_ended':
          if (ready) emit({ type: 'ended', time: duration ?? time });
          return;
        case 'panda_error':
          if (ready) emit({ type: 'error', message: 'Panda player error' });
          else fail('The Panda player reported an error while loading');
          return;
        default:
          return;
      }
    }

    window.addEventListener('message', onMessage);
    container.append(iframe);
  });
};
