import { type PlayerAdapter, type PlayerEvent, type PlayerHandle, PROVIDER_LOAD_TIMEOUT_MS } from '../player';
import { parseVimeoSource, vimeoPlayerUrl } from '@embudo/contracts/runtime';
import { playerFrame, refuseSource } from './adapter-kit';

/**
 * Vimeo, through the official `@vimeo/player` SDK (loaded on demand, so it stays out of the main
 * bundle). The SDK speaks Vimeo's postMessage protocol with the player iframe:
 *   - parent → iframe: `{method, value}`, e.g. `{method:'addEventListener', value:'timeupdate'}`,
 *     `{method:'play'}`, `{method:'setCurrentTime', value: 30}`, `{method:'getDuration'}`;
 *   - iframe → parent: `{event:'ready'}` once, then `{event, data}` for subscribed events and
 *     `{method, value}` replies to calls (errors come as `{event:'error', data:{method, name, message}}`).
 * The SDK only accepts messages whose origin is a Vimeo origin and whose source is this iframe, and
 * once the first message has arrived it posts to that origin (never '*').
 *
 * What maps to which PlayerEvent:
 *   ready (SDK ready promise)  → ready, then duration (getDuration)
 *   play / pause / timeupdate / seeked / ended ({seconds}) → play / pause / timeupdate / seeked / ended
 *   durationchange ({duration}) → duration
 *   error ({message}) → error, unless it names a failed call (that call's promise rejects instead)
 * The seek that honours `startAt` is not reported as `seeked`: it is not the visitor skipping.
 */

/** Event data crosses a postMessage boundary: read it as unknown. */
function numberField(data: unknown, field: 'seconds' | 'duration'): number | null {
  if (typeof data !== 'object' || data === null) return null;
  const value = (data as Record<string, unknown>)[field];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

function seconds(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * A playback error's message, or null for the error of a call (play, seek…): the SDK already rejects
 * that call's promise, where the caller sees it.
 */
function playbackError(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return 'Vimeo player error';
  const { method, message } = data as Record<string, unknown>;
  if (typeof method === 'string' && method !== '') return null;
  return typeof message === 'string' ? message : 'Vimeo player error';
}

export const mountVimeo: PlayerAdapter = async (source, { container, startAt, onEvent }) => {
  const video = parseVimeoSource(source);
  if (!video) {
    return refuseSource('Invalid Vimeo video id or URL', source.videoId ?? source.videoUrl);
  }
  // The deadline starts before anything loads: a chunk or an iframe that never answers both count.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error('The Vimeo player did not load in time'));
    }, PROVIDER_LOAD_TIMEOUT_MS);
  });

  // The iframe lives in a shadow root. The SDK installs page-wide listeners at import time that look
  // the sender up with document.querySelectorAll('iframe') and, on its `ready`, post
  // `appendVideoMetadata` with window.location.href: the lead's personal link, token included.
  // Outside document.querySelectorAll's reach, only this adapter's own Player talks to the iframe.
  const host = document.createElement('div');
  host.style.cssText = 'width:100%;height:100%';
  const iframe = playerFrame(
    vimeoPlayerUrl(video),
    'autoplay; fullscreen; picture-in-picture; encrypted-media',
  );
  host.attachShadow({ mode: 'open' }).append(iframe);

  let destroyed = false;
  let time = 0;
  let duration: number | null = null;
  // The position the resume seek goes to: the seeked event that lands there is not the visitor's.
  let initialSeek: number | null = null;
  const emit = (event: PlayerEvent) => {
    if (!destroyed) onEvent(event);
  };
  const setDuration = (value: number | null) => {
    if (value === null || value <= 0 || value === duration) return;
    duration = value;
    emit({ type: 'duration', duration: value });
  };

  try {
    const { default: Player } = await Promise.race([import('@vimeo/player'), deadline]);
    // Created while the iframe is still detached: the SDK's constructor pings the iframe with target
    // origin '*', which only happens when the iframe already has a window. Attached afterwards, the
    // first message the SDK posts goes to the origin of the iframe's own `ready`.
    const player = new Player(iframe);
    container.append(host);

    const track = (type: 'play' | 'pause' | 'timeupdate' | 'ended') => (data: unknown) => {
      time = numberField(data, 'seconds') ?? time;
      emit({ type, time });
    };
    player.on('play', track('play'));
    player.on('pause', track('pause'));
    player.on('timeupdate', track('timeupdate'));
    player.on('ended', track('ended'));
    player.on('seeked', (data: unknown) => {
      time = numberField(data, 'seconds') ?? time;
      const resume = initialSeek !== null && Math.abs(time - initialSeek) < 0.5;
      initialSeek = null;
      if (!resume) emit({ type: 'seeked', time });
    });
    player.on('durationchange', (data: unknown) => {
      setDuration(numberField(data, 'duration'));
    });
    player.on('error', (data: unknown) => {
      const message = playbackError(data);
      if (message !== null) emit({ type: 'error', message });
    });

    try {
      await Promise.race([player.ready(), deadline]);
      const known = seconds(await Promise.race([player.getDuration(), deadline]));
      const start = known > 0 && startAt >= known ? 0 : Math.max(0, startAt);
      if (start > 0) {
        initialSeek = start;
        time = seconds(await Promise.race([player.setCurrentTime(start), deadline])) || start;
      }
      emit({ type: 'ready' });
      setDuration(known);
    } catch (error) {
      destroyed = true;
      void player.destroy();
      throw error;
    }

    const handle: PlayerHandle = {
      play: () => player.play(),
      pause: () => {
        player.pause().catch((error: unknown) => {
          console.warn('Vimeo pause failed', error);
        });
      },
      seek: (seconds) => {
        player.setCurrentTime(Math.max(0, seconds)).catch((error: unknown) => {
          console.warn('Vimeo seek failed', error);
        });
      },
      currentTime: () => time,
      duration: () => duration,
      destroy: () => {
        if (destroyed) return;
        destroyed = true;
        void player.destroy();
        host.remove();
      },
    };
    return handle;
  } catch (error) {
    host.remove();
    throw error;
  } finally {
    clearTimeout(timer);
  }
};
