import { lazy } from 'react';

/**
 * The modals and the overlay appear only after something happens (a blocked popup, 15 idle
 * minutes, a video's end), so their code loads on demand and stays out of the first bundle.
 * `preloadModal` fetches one ahead of need (the overlay as soon as the video plays).
 */
const loaders = {
  blockedWindow: () => import('./BlockedWindowModal').then((m) => ({ default: m.BlockedWindowModal })),
  inactivity: () => import('./InactivityModal').then((m) => ({ default: m.InactivityModal })),
  nextVideo: () => import('./NextVideoOverlay').then((m) => ({ default: m.NextVideoOverlay })),
};

export const LazyBlockedWindowModal = lazy(loaders.blockedWindow);
export const LazyInactivityModal = lazy(loaders.inactivity);
export const LazyNextVideoOverlay = lazy(loaders.nextVideo);

export function preloadModal(name: keyof typeof loaders): void {
  void loaders[name]().catch(() => undefined);
}
