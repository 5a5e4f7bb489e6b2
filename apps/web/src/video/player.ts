import type { VideoSource } from '@embudo/contracts/runtime';

/**
 * One interface over every video provider (issue 5): the self-hosted HTML5 player, Vimeo, Panda
 * Video, VTurb and the generic embedded player. An adapter mounts its player into a container the
 * page reserved, reports what happens through `on`, and obeys the few commands the page needs.
 * Times are in seconds, as every provider reports them.
 */
export type PlayerEvent =
  | { type: 'ready' }
  | { type: 'play'; time: number }
  | { type: 'pause'; time: number }
  | { type: 'timeupdate'; time: number }
  | { type: 'seeked'; time: number }
  | { type: 'ended'; time: number }
  | { type: 'duration'; duration: number }
  | { type: 'error'; message: string };

export type PlayerListener = (event: PlayerEvent) => void;

export interface PlayerHandle {
  play(): Promise<void>;
  pause(): void;
  seek(seconds: number): void;
  /** The current position in seconds; 0 before the provider reports one. */
  currentTime(): number;
  /** The duration in seconds, or null until the provider knows it. */
  duration(): number | null;
  destroy(): void;
}

export interface MountOptions {
  /** An element the page reserved (16:9, at most 1000 px wide); the adapter fills it. */
  container: HTMLElement;
  /** Where to start (the resume point of visitor-behaviour §4.4), in seconds. */
  startAt: number;
  onEvent: PlayerListener;
}

export type { VideoSource };

/**
 * An adapter loads its provider's code on demand (never before the first paint) and resolves once
 * the player is in the page; it rejects when the provider cannot be loaded, and the page then shows
 * 'Error al cargar video'.
 */
export type PlayerAdapter = (source: VideoSource, options: MountOptions) => Promise<PlayerHandle>;

/** How long a provider's player may take to load before the page shows 'Error al cargar video'. */
export const PROVIDER_LOAD_TIMEOUT_MS = 20_000;
