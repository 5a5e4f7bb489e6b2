import type { PlayerAdapter, PlayerEvent, PlayerHandle, VideoSource } from '../../apps/web/src/video/player';
import { mountEmbed } from '../../apps/web/src/video/providers/embed';
import { mountPanda } from '../../apps/web/src/video/providers/panda';
import { mountVimeo } from '../../apps/web/src/video/providers/vimeo';
import { mountVturb } from '../../apps/web/src/video/providers/vturb';

/**
 * Browser entry of the provider tests: mounts one adapter into `#player`, records every PlayerEvent
 * it reports, and exposes the PlayerHandle, all on `window.harness` for page.evaluate.
 */

const adapters = {
  vimeo: mountVimeo,
  panda: mountPanda,
  vturb: mountVturb,
  embed: mountEmbed,
} satisfies Record<string, PlayerAdapter>;

export type ProviderName = keyof typeof adapters;

export type MountState =
  { state: 'idle' } | { state: 'pending' } | { state: 'mounted' } | { state: 'rejected'; error: string };

export interface Harness {
  /** Starts mounting and returns at once (the adapter's timer is running when this returns). */
  startMount(provider: ProviderName, source: Partial<VideoSource>, startAt?: number): void;
  /** Mounts and waits for the outcome. */
  mount(provider: ProviderName, source: Partial<VideoSource>, startAt?: number): Promise<MountState>;
  state(): MountState;
  events(): PlayerEvent[];
  /** Resolves to null when the handle's play() resolved, or to the error's text. */
  play(): Promise<string | null>;
  pause(): void;
  seek(seconds: number): void;
  currentTime(): number | null;
  duration(): number | null;
  destroy(): void;
  /** Messages the page received from an origin (to know a forged message has been delivered). */
  messagesFrom(origin: string): unknown[];
}

const events: PlayerEvent[] = [];
const messages: { origin: string; data: unknown }[] = [];
let handle: PlayerHandle | null = null;
let mountState: MountState = { state: 'idle' };
let outcome: Promise<MountState> = Promise.resolve(mountState);

window.addEventListener('message', (event) => {
  messages.push({ origin: event.origin, data: event.data });
});

function container(): HTMLElement {
  const element = document.getElementById('player');
  if (!element) throw new Error('the harness page has no #player');
  return element;
}

function requireHandle(): PlayerHandle {
  if (!handle) throw new Error('no player is mounted');
  return handle;
}

function startMount(provider: ProviderName, source: Partial<VideoSource>, startAt = 0): void {
  const full: VideoSource = {
    hostingVideo: 'EMBED',
    videoId: null,
    videoUrl: null,
    videoLibrary: null,
    ...source,
  };
  mountState = { state: 'pending' };
  outcome = adapters[provider](full, {
    container: container(),
    startAt,
    onEvent: (event) => {
      events.push(event);
    },
  }).then(
    (mounted): MountState => {
      handle = mounted;
      mountState = { state: 'mounted' };
      return mountState;
    },
    (error: unknown): MountState => {
      mountState = { state: 'rejected', error: error instanceof Error ? error.message : String(error) };
      return mountState;
    },
  );
}

const harness: Harness = {
  startMount,
  mount: (provider, source, startAt) => {
    startMount(provider, source, startAt);
    return outcome;
  },
  state: () => mountState,
  events: () => events.slice(),
  play: () =>
    requireHandle()
      .play()
      .then(
        () => null,
        (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
      ),
  pause: () => {
    requireHandle().pause();
  },
  seek: (seconds) => {
    requireHandle().seek(seconds);
  },
  currentTime: () => handle?.currentTime() ?? null,
  duration: () => handle?.duration() ?? null,
  destroy: () => {
    requireHandle().destroy();
  },
  messagesFrom: (origin) => messages.filter((message) => message.origin === origin).map((m) => m.data),
};

Object.assign(window, { harness });
