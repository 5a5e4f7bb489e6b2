/**
 * Where each video provider's player comes from. The browser's adapters build their embeds with these
 * functions, and the server names the same hosts, and only those, in a visitor page's
 * Content-Security-Policy: one definition, so the two cannot drift apart.
 */

/** What a page tells the player: the provider and either an id (`id` or `id/hash`) or a URL. */
export interface VideoSource {
  hostingVideo: 'SELF_HOSTED' | 'VIMEO' | 'VTURB' | 'PANDA' | 'EMBED';
  videoId: string | null;
  videoUrl: string | null;
  videoLibrary: string | null;
}

/** A DNS name (letters, digits, inner hyphens, dot-separated labels) or an IPv4 or [IPv6] address. */
const PLAIN_HOST =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV6_HOST = /^\[[0-9a-f:.]+\]$/;

/**
 * Whether `url` is an ordinary web address: http or https, a real host name or IP address, no
 * user or password. Node's and browsers' parsers take `;`, `,` and `*` in a host name (an EMBED of
 * `http://x.test;report-uri/` would write a directive into the page's Content-Security-Policy), so
 * every URL a player or the policy uses passes here first.
 */
export function isPlainWebUrl(url: URL): boolean {
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === '' &&
    (PLAIN_HOST.test(url.hostname) || IPV6_HOST.test(url.hostname))
  );
}

/** An absolute ordinary web URL (see isPlainWebUrl), or null when `text` is empty or not one. */
function urlOf(text: string | null): URL | null {
  if (!text || !URL.canParse(text)) return null;
  const url = new URL(text);
  return isPlainWebUrl(url) ? url : null;
}

export const VIMEO_PLAYER_ORIGIN = 'https://player.vimeo.com';

export interface VimeoVideo {
  id: string;
  hash: string | null;
}

/** `videoId` is `id` or `id/hash` (unlisted videos); a vimeo.com or player.vimeo.com URL also works. */
export function parseVimeoSource(source: Pick<VideoSource, 'videoId' | 'videoUrl'>): VimeoVideo | null {
  const fromId = /^(\d+)(?:\/([0-9a-zA-Z]+))?$/.exec(source.videoId?.trim() ?? '');
  if (fromId?.[1]) return { id: fromId[1], hash: fromId[2] ?? null };
  const url = urlOf(source.videoUrl);
  if (!url) return null;
  if (url.protocol !== 'https:' || !/^(player\.|www\.)?vimeo\.com$/.test(url.hostname)) return null;
  const path = /^\/(?:video\/)?(\d+)(?:\/([0-9a-zA-Z]+))?\/?$/.exec(url.pathname);
  if (!path?.[1]) return null;
  const hash = url.searchParams.get('h') ?? path[2] ?? null;
  return { id: path[1], hash: hash && /^[0-9a-zA-Z]+$/.test(hash) ? hash : null };
}

export function vimeoPlayerUrl(video: VimeoVideo): string {
  const url = new URL(`/video/${video.id}`, VIMEO_PLAYER_ORIGIN);
  if (video.hash) url.searchParams.set('h', video.hash);
  return url.toString();
}

/** Panda's embed hosts: `player-vz-<library>.tv.pandavideo.com.br` (and the newer `.com`). */
const PANDA_HOST = /^player-vz-[a-z0-9-]+\.tv\.pandavideo\.com(\.br)?$/;
const SAFE_ID = /^[A-Za-z0-9-]+$/;

/** Panda's embed URL: from `videoUrl`, or built from `videoId` + `videoLibrary`; null when invalid. */
export function pandaEmbedUrl(
  source: Pick<VideoSource, 'videoId' | 'videoUrl' | 'videoLibrary'>,
): URL | null {
  if (source.videoUrl) {
    const url = urlOf(source.videoUrl);
    if (!url) return null;
    const videoId = url.searchParams.get('v');
    if (url.protocol !== 'https:' || !PANDA_HOST.test(url.hostname) || !url.pathname.startsWith('/embed')) {
      return null;
    }
    return videoId && SAFE_ID.test(videoId) ? url : null;
  }
  const library = source.videoLibrary?.trim().toLowerCase().replace(/^vz-/, '') ?? '';
  const videoId = source.videoId?.trim() ?? '';
  if (!SAFE_ID.test(library) || !SAFE_ID.test(videoId)) return null;
  const url = new URL(`https://player-vz-${library}.tv.pandavideo.com.br/embed/`);
  url.searchParams.set('v', videoId);
  return url;
}

export const VTURB_SCRIPT_HOST = 'scripts.converteai.net';
const VTURB_SCRIPT_PATH = /^\/([A-Za-z0-9-]+)\/players\/([A-Za-z0-9]+)\/(v4\/)?player\.js$/;

/**
 * The domains VTurb's smartplayer loads from once its script runs in the page (its player code,
 * HLS playlists and segments, thumbnails, analytics). The script is VTurb's, so the policy can name
 * its domains but not each host it may pick.
 */
export const VTURB_DOMAINS = ['https://*.converteai.net', 'https://*.vturb.com.br', 'https://*.vturb.net'];

export interface VturbEmbed {
  scriptUrl: string;
  playerId: string;
  webComponent: boolean;
}

/**
 * VTurb's embed: `videoUrl` = the full script URL, `https://scripts.converteai.net/<account>/players/<player>/player.js`
 * (classic embed) or `…/<player>/v4/player.js` (web component); or else `videoLibrary` = the account
 * id and `videoId` = the player id, for the classic script URL. Null when invalid.
 */
export function vturbEmbed(
  source: Pick<VideoSource, 'videoId' | 'videoUrl' | 'videoLibrary'>,
): VturbEmbed | null {
  if (source.videoUrl) {
    const url = urlOf(source.videoUrl);
    if (!url) return null;
    const path = VTURB_SCRIPT_PATH.exec(url.pathname);
    if (url.protocol !== 'https:' || url.hostname !== VTURB_SCRIPT_HOST || !path?.[1] || !path[2])
      return null;
    return {
      scriptUrl: `https://${VTURB_SCRIPT_HOST}${url.pathname}`,
      playerId: path[2],
      webComponent: path[3] !== undefined,
    };
  }
  const account = source.videoLibrary?.trim() ?? '';
  const playerId = source.videoId?.trim() ?? '';
  if (!SAFE_ID.test(account) || !/^[A-Za-z0-9]+$/.test(playerId)) return null;
  return {
    scriptUrl: `https://${VTURB_SCRIPT_HOST}/${account}/players/${playerId}/player.js`,
    playerId,
    webComponent: false,
  };
}

/** The generic embed's URL: `videoUrl`, an ordinary http or https address only; null otherwise. */
export function embedUrl(videoUrl: string | null): URL | null {
  return urlOf(videoUrl);
}

/** A self-hosted video's origin when it is on another host; null when it is a path on this server. */
function selfHostedOrigin(videoUrl: string | null): string | null {
  return videoUrl && /^https?:\/\//i.test(videoUrl) ? (urlOf(videoUrl)?.origin ?? null) : null;
}

/** What one page's player needs a visitor's browser to load, by kind of request. */
export interface VideoAllowance {
  /** Frames (iframe players). */
  frames: string[];
  /** Scripts that run in the visitor's page. */
  scripts: string[];
  /** Media, fetches (HLS), images, styles and fonts of a player drawn in the page itself. */
  media: string[];
}

/**
 * The sources one page's video needs, as CSP source expressions: the provider's host (or domains)
 * that the adapter for `hostingVideo` would load. An invalid source needs nothing: its adapter
 * refuses it and loads nothing.
 */
export function videoAllowance(source: VideoSource): VideoAllowance {
  const none: VideoAllowance = { frames: [], scripts: [], media: [] };
  switch (source.hostingVideo) {
    case 'SELF_HOSTED': {
      const origin = selfHostedOrigin(source.videoUrl);
      return origin ? { ...none, media: [origin] } : none;
    }
    case 'VIMEO':
      return parseVimeoSource(source) ? { ...none, frames: [VIMEO_PLAYER_ORIGIN] } : none;
    case 'PANDA': {
      const url = pandaEmbedUrl(source);
      return url ? { ...none, frames: [url.origin] } : none;
    }
    case 'VTURB':
      return vturbEmbed(source) ? { frames: [], scripts: VTURB_DOMAINS, media: VTURB_DOMAINS } : none;
    case 'EMBED': {
      const url = embedUrl(source.videoUrl);
      return url ? { ...none, frames: [url.origin] } : none;
    }
  }
}
