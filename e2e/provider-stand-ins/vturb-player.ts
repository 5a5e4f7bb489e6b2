import { createVideoDouble } from './video-double';

/**
 * Stand-in for VTurb's https://scripts.converteai.net/<account>/players/<player>/player.js (and
 * …/v4/player.js): a classic script that draws a real <video> into `#vid_<player>` (or the
 * `<vturb-smartplayer id="vid-<player>">` element) and registers the player on
 * `window.smartplayer.instances` with the API pages use: `options.id`, `on(event, callback)`,
 * `play()`, `pause()`, `video`, `smartAutoPlay`. Like the real script, it registers asynchronously,
 * after the script has run.
 */

const scriptUrl = new URL((document.currentScript as HTMLScriptElement | null)?.src ?? location.href);
const match = /\/[A-Za-z0-9-]+\/players\/([A-Za-z0-9]+)\/(v4\/)?player\.js$/.exec(scriptUrl.pathname);
const playerId = match?.[1] ?? '';
const webComponent = match?.[2] !== undefined;
const slot = document.getElementById(webComponent ? `vid-${playerId}` : `vid_${playerId}`);

interface SmartplayerGlobal {
  smartplayer?: { instances?: unknown[] };
}

if (!slot) {
  console.error(`VTurb stand-in: no element for player ${playerId}`);
} else {
  setTimeout(() => {
    const video = createVideoDouble(slot, new URL('/__stand-in/vsl.mp4', scriptUrl).toString());
    const instance = {
      options: { id: playerId },
      video,
      smartAutoPlay: false,
      on(event: string, callback: () => void) {
        video.addEventListener(event, () => {
          callback();
        });
      },
      play: () => video.play(),
      pause: () => {
        video.pause();
      },
    };
    const global = window as unknown as SmartplayerGlobal;
    global.smartplayer ??= {};
    (global.smartplayer.instances ??= []).push(instance);
    if (webComponent) slot.dispatchEvent(new CustomEvent('player:ready', { detail: { player: slot } }));
  }, 50);
}
