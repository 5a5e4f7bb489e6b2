import { ROUTE_PATHS, embedUrl, videoAllowance, type VideoSource } from '@embudo/contracts';

/** Where browsers send the reports of a visitor page's policy (the route in csp-report.routes.ts). */
export const CSP_REPORT_PATH = ROUTE_PATHS.cspReport.report.path;

/** Whether browsers enforce the policy or only report what it would have blocked. */
export type CspMode = 'enforce' | 'report-only';

export const cspHeaderName = (mode: CspMode) =>
  mode === 'enforce' ? 'content-security-policy' : 'content-security-policy-report-only';

/** The video fields of a page; pages without a provider have no video. */
export type PageVideo = Omit<VideoSource, 'hostingVideo'> & {
  hostingVideo: VideoSource['hostingVideo'] | null;
};

const isOwnHost = (url: URL | null, ownHosts: readonly string[]) =>
  url !== null && ownHosts.includes(url.hostname.toLowerCase());

const unique = (sources: readonly string[]) => [...new Set(sources)];
const list = (sources: readonly string[]) => (sources.length > 0 ? sources.join(' ') : "'none'");

/**
 * A visitor page's Content-Security-Policy (decision 18). Scripts, styles and fonts come from this
 * server; frames, media and fetches only from this server and the video providers of the funnel's
 * pages (a lead moves from page to page without reloading the document, so the policy covers them
 * all). Images may come from any web address, as owners' backgrounds and rich text do. No other site
 * may frame the page, and there is no <base>, form, plugin or inline script. `ownHosts` are this
 * server's own (base) hosts, which no embedded player may be.
 */
export function visitorPagePolicy(videos: readonly PageVideo[], ownHosts: readonly string[] = []): string {
  const frames: string[] = [];
  const scripts: string[] = [];
  const media: string[] = [];
  for (const video of videos) {
    if (video.hostingVideo === null) continue;
    // A frame of this server's own pages would be same-origin with the lead's page, and its sandbox
    // (allow-scripts allow-same-origin) no sandbox at all: never allowed.
    if (video.hostingVideo === 'EMBED' && isOwnHost(embedUrl(video.videoUrl), ownHosts)) continue;
    const allowance = videoAllowance({ ...video, hostingVideo: video.hostingVideo });
    frames.push(...allowance.frames);
    scripts.push(...allowance.scripts);
    media.push(...allowance.media);
  }
  const fromPlayers = unique(media);
  const directives: [string, string[]][] = [
    ['default-src', ["'none'"]],
    ['script-src', ["'self'", ...unique(scripts)]],
    // Rich text keeps its (sanitised) style attributes; a player drawn in the page brings styles.
    ['style-src', ["'self'", "'unsafe-inline'", ...fromPlayers]],
    ['img-src', ["'self'", 'data:', 'blob:', 'https:', 'http:']],
    ['font-src', ["'self'", 'data:', ...fromPlayers]],
    // HLS is fetched by hls.js and played from a blob: MediaSource; its worker starts from a blob:.
    ['connect-src', ["'self'", ...fromPlayers]],
    ['media-src', ["'self'", 'blob:', ...fromPlayers]],
    ['worker-src', ["'self'", 'blob:']],
    ['frame-src', unique(frames)],
    ['manifest-src', ["'self'"]],
    ['base-uri', []],
    ['form-action', []],
    ['object-src', []],
    ['frame-ancestors', []],
    ['report-uri', [CSP_REPORT_PATH]],
  ];
  return directives.map(([name, sources]) => `${name} ${list(sources)}`).join('; ');
}
