import { type PlayerAdapter, type PlayerEvent, type PlayerHandle, PROVIDER_LOAD_TIMEOUT_MS } from '../player';
import { vturbEmbed } from '@embudo/contracts/runtime';
import { refuseSource } from './adapter-kit';

/**
 * VTurb (ConverteAI) smartplayer. Not an iframe: VTurb's script runs in the page, draws its player
 * into an element named after the player, and registers the player on `window.smartplayer.instances`.
 * Each instance has `options.id` (the player id), `on(event, callback)` ('play', 'pause',
 * 'timeupdate', 'ended'), `play()`, `video` (the HTMLVideoElement: currentTime, duration…) and
 * `smartAutoPlay` (true while the muted autoplay teaser runs).
 *
 * Page data mapping:
 *   videoUrl     = the full script URL, `https://scripts.converteai.net/<account>/players/<player>/player.js`
 *                  (classic embed, drawn into `<div id="vid_<player>">`) or `…/<player>/v4/player.js`
 *                  (web component `<vturb-smartplayer id="vid-<player>">`); or else
 *   videoLibrary = the account id (a UUID) and videoId = the player id: the classic script URL.
 *
 * What maps to which PlayerEvent:
 *   instance registered → ready; video duration (now or on durationchange) → duration
 *   instance 'play' / 'pause' / 'timeupdate' / 'ended' → play / pause / timeupdate / ended
 *     (time from instance.video.currentTime);   video 'seeked' → seeked;   video 'error' → error
 * Nothing is reported while `smartAutoPlay` is on: the muted teaser is not the visitor watching.
 * The seek that honours `startAt` is not reported as `seeked`: it is not the visitor skipping.
 */

const POLL_MS = 100;

/** The part of a smartplayer instance this adapter uses, checked at run time (it is foreign code). */
interface VturbInstance {
  raw: Record<string, unknown>;
  on(event: string, callback: () => void): void;
  video: HTMLMediaElement;
}

function asInstance(value: unknown, playerId: string): VturbInstance | null {
  if (typeof value !== 'object' || value === null) return null;
  const raw = value as Record<string, unknown>;
  const options = raw.options;
  const id =
    typeof options === 'object' && options !== null ? (options as Record<string, unknown>).id : undefined;
  const on = raw.on;
  const video = raw.video;
  if (id !== playerId || typeof on !== 'function' || !(video instanceof HTMLMediaElement)) return null;
  return {
    raw,
    on: (event, callback) => {
      Reflect.apply(on, raw, [event, callback]);
    },
    video,
  };
}

function registeredInstances(): unknown[] {
  const smartplayer: unknown = Reflect.get(window, 'smartplayer');
  if (typeof smartplayer !== 'object' || smartplayer === null) return [];
  const instances = (smartplayer as Record<string, unknown>).instances;
  return Array.isArray(instances) ? (instances as unknown[]) : [];
}

export const mountVturb: PlayerAdapter = (source, { container, startAt, onEvent }) => {
  const embed = vturbEmbed(source);
  if (!embed) {
    return refuseSource(
      'Invalid VTurb player',
      source.videoUrl ?? { id: source.videoId, account: source.videoLibrary },
    );
  }

  const playerId = embed.playerId;
  // An instance that was already registered (an earlier mount of the same player) is not ours.
  const before = new Set(registeredInstances());
  const slot = document.createElement(embed.webComponent ? 'vturb-smartplayer' : 'div');
  slot.id = embed.webComponent ? `vid-${playerId}` : `vid_${playerId}`;
  slot.style.cssText = 'display:block;width:100%;height:100%;position:relative';
  const script = document.createElement('script');
  script.src = embed.scriptUrl;
  script.async = true;

  let destroyed = false;
  let time = 0;
  let duration: number | null = null;
  // The position the resume seek goes to: the seeked event that lands there is not the visitor's.
  let initialSeek: number | null = null;
  const emit = (event: PlayerEvent) => {
    if (!destroyed) onEvent(event);
  };

  return new Promise<PlayerHandle>((resolve, reject) => {
    let instance: VturbInstance | null = null;
    const cleanups: (() => void)[] = [];
    const timer = setTimeout(() => {
      fail('The VTurb player did not load in time');
    }, PROVIDER_LOAD_TIMEOUT_MS);
    const poll = setInterval(findInstance, POLL_MS);

    function teardown() {
      if (destroyed) return;
      destroyed = true;
      clearTimeout(timer);
      clearInterval(poll);
      for (const cleanup of cleanups) cleanup();
      instance?.video.pause();
      slot.remove();
      script.remove();
    }
    function fail(message: string) {
      teardown();
      reject(new Error(message));
    }

    const teaser = () => instance?.raw.smartAutoPlay === true;
    const readTime = () => {
      if (!instance) return time;
      const now = instance.video.currentTime;
      if (Number.isFinite(now) && now >= 0) time = now;
      return time;
    };
    // The resume point waits for the duration: beyond it, the video restarts at 0 (visitor-behaviour §4.4).
    let startPending = startAt > 0;
    const applyStart = () => {
      if (!startPending || !instance || duration === null) return;
      startPending = false;
      if (startAt >= duration) return;
      initialSeek = startAt;
      instance.video.currentTime = startAt;
      time = startAt;
    };
    const readDuration = () => {
      const value = instance?.video.duration;
      if (value === undefined || !Number.isFinite(value) || value <= 0 || value === duration) return;
      duration = value;
      applyStart();
      emit({ type: 'duration', duration: value });
    };

    function attach(found: VturbInstance) {
      instance = found;
      const video = found.video;
      for (const type of ['play', 'pause', 'timeupdate', 'ended'] as const) {
        found.on(type, () => {
          if (destroyed || teaser()) return;
          emit({ type, time: readTime() });
        });
      }
      // The instance API names no seek or duration event; those come from its video element.
      const onSeeked = () => {
        readTime();
        const resume = initialSeek !== null && Math.abs(time - initialSeek) < 0.5;
        initialSeek = null;
        if (!resume && !teaser()) emit({ type: 'seeked', time });
      };
      const onError = () => {
        emit({ type: 'error', message: video.error?.message || 'VTurb video error' });
      };
      video.addEventListener('seeked', onSeeked);
      video.addEventListener('durationchange', readDuration);
      video.addEventListener('loadedmetadata', readDuration);
      video.addEventListener('error', onError);
      cleanups.push(() => {
        video.removeEventListener('seeked', onSeeked);
        video.removeEventListener('durationchange', readDuration);
        video.removeEventListener('loadedmetadata', readDuration);
        video.removeEventListener('error', onError);
      });

      emit({ type: 'ready' });
      readDuration();
    }

    function findInstance() {
      if (destroyed) return;
      for (const candidate of registeredInstances()) {
        if (before.has(candidate)) continue;
        const found = asInstance(candidate, playerId);
        if (!found) continue;
        clearInterval(poll);
        clearTimeout(timer);
        attach(found);
        resolve(handle);
        return;
      }
    }

    const handle: PlayerHandle = {
      play: () => {
        if (!instance) return Promise.reject(new Error('VTurb player not ready'));
        const play = instance.raw.play;
        if (typeof play === 'function') {
          return Promise.resolve(Reflect.apply(play, instance.raw, []) as unknown).then(() => undefined);
        }
        return instance.video.play();
      },
      pause: () => {
        instance?.video.pause();
      },
      seek: (seconds) => {
        if (instance) instance.video.currentTime = Math.max(0, seconds);
      },
      currentTime: () => readTime(),
      duration: () => duration,
      destroy: teardown,
    };

    script.addEventListener('error', () => {
      fail('The VTurb player script could not be loaded');
    });
    script.addEventListener('load', findInstance);
    container.append(slot);
    document.head.append(script);
  });
};
