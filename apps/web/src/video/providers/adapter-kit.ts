/** What the iframe-based adapters build alike: the player frame, and the refusal of a bad source. */

/** A full-size, titled player frame that sends only its origin as referrer. */
export function playerFrame(src: string, allow: string): HTMLIFrameElement {
  const iframe = document.createElement('iframe');
  iframe.src = src;
  iframe.title = 'Video';
  iframe.allow = allow;
  iframe.allowFullscreen = true;
  iframe.referrerPolicy = 'strict-origin-when-cross-origin';
  iframe.style.cssText = 'display:block;width:100%;height:100%;border:0';
  return iframe;
}

/** A source the adapter cannot play is logged (visitor-behaviour §8) and the mount rejects. */
export function refuseSource(message: string, source: unknown): Promise<never> {
  console.error(message, source);
  return Promise.reject(new Error(message));
}
