import { type PlayerAdapter, type PlayerHandle, PROVIDER_LOAD_TIMEOUT_MS } from '../player';
import { embedUrl } from '@embudo/contracts/runtime';
import { playerFrame, refuseSource } from './adapter-kit';

/**
 * The generic embedded player: an iframe of the page's `videoUrl` (http or https only). It speaks no
 * known protocol, so it reports `ready` once the iframe has loaded and nothing else; the page then
 * falls back to its 10 s timer (visitor-behaviour §4.5). Commands are no-ops; no message is read from the frame.
 * A cross-origin frame does not reveal an HTTP error: a 404 page still loads, and still reports ready.
 *
 * What maps to which PlayerEvent: iframe `load` → ready. Nothing else.
 *
 * The frame is sandboxed without `allow-top-navigation`: whatever the owner embeds cannot navigate the
 * visitor's page away, even after a click inside it (links that open a new tab still work).
 */

export const mountEmbed: PlayerAdapter = (source, { container, onEvent }) => {
  const url = embedUrl(source.videoUrl);
  // A frame of this site itself would be same-origin with the lead's page: its sandbox would not hold.
  if (!url || url.origin === window.location.origin) {
    return refuseSource('Invalid embedded video URL', source.videoUrl);
  }

  const iframe = playerFrame(url.toString(), 'autoplay; fullscreen; picture-in-picture; encrypted-media');
  iframe.setAttribute(
    'sandbox',
    'allow-scripts allow-same-origin allow-presentation allow-popups allow-popups-to-escape-sandbox',
  );

  let destroyed = false;
  const handle: PlayerHandle = {
    play: () => Promise.resolve(),
    pause: () => undefined,
    seek: () => undefined,
    currentTime: () => 0,
    duration: () => null,
    destroy: () => {
      destroyed = true;
      iframe.remove();
    },
  };

  return new Promise<PlayerHandle>((resolve, reject) => {
    const timer = setTimeout(() => {
      handle.destroy();
      reject(new Error('The embedded video did not load in time'));
    }, PROVIDER_LOAD_TIMEOUT_MS);
    iframe.addEventListener(
      'load',
      () => {
        clearTimeout(timer);
        if (destroyed) return;
        onEvent({ type: 'ready' });
        resolve(handle);
      },
      { once: true },
    );
    container.append(iframe);
  });
};
