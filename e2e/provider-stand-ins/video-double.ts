/**
 * What every stand-in shares: a real <video> playing the demo MP4 (a 12 s H.264 file), served from a
 * path on the provider's own (routed) host so an https player page never loads mixed content.
 */
export const STAND_IN_MEDIA_PATH = '/__stand-in/vsl.mp4';

export function createVideoDouble(
  parent: HTMLElement,
  mediaUrl: string = STAND_IN_MEDIA_PATH,
): HTMLVideoElement {
  const video = document.createElement('video');
  video.src = mediaUrl;
  video.preload = 'auto';
  video.playsInline = true;
  video.controls = true;
  video.style.cssText = 'display:block;width:100%;height:100%;background:#000';
  parent.append(video);
  return video;
}

/** Everything a stand-in received from its parent, for the tests to read through the frame. */
export function recordReceived(entry: unknown): void {
  const holder = window as unknown as { __standInReceived?: unknown[] };
  (holder.__standInReceived ??= []).push(entry);
}
