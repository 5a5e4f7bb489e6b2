import { VTURB_DOMAINS } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { visitorPagePolicy, type PageVideo } from './content-security-policy';

/** The policy as a map from directive to its sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

const video = (fields: Partial<PageVideo> & Pick<PageVideo, 'hostingVideo'>): PageVideo => ({
  videoId: null,
  videoUrl: null,
  videoLibrary: null,
  ...fields,
});

const VIMEO = video({ hostingVideo: 'VIMEO', videoId: '76979871' });
const PANDA = video({
  hostingVideo: 'PANDA',
  videoId: '0f8fad5b-d9cb-469f-a165-70867728950e',
  videoLibrary: 'a1b2c3d4-e5f',
});
const VTURB = video({
  hostingVideo: 'VTURB',
  videoUrl: 'https://scripts.converteai.net/2f1e7c3a/players/65f0c1d2e3a4b5c6/player.js',
});
const EMBED = video({ hostingVideo: 'EMBED', videoUrl: 'https://videos.example.com/watch/42?t=1' });
const SELF_HOSTED_HERE = video({ hostingVideo: 'SELF_HOSTED', videoUrl: '/assets/demo/vsl.mp4' });
const SELF_HOSTED_CDN = video({
  hostingVideo: 'SELF_HOSTED',
  videoUrl: 'https://cdn.example.net/v/master.m3u8',
});

/** What a page that plays nothing from elsewhere allows: this server only. */
const OWN = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'media-src': ["'self'", 'blob:'],
  'worker-src': ["'self'", 'blob:'],
  'frame-src': ["'none'"],
  'manifest-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'report-uri': ['/api/csp-report'],
};

describe('a visitor page’s Content-Security-Policy', () => {
  it('allows only this server when no page has a video from elsewhere', () => {
    for (const videos of [[], [video({ hostingVideo: null })], [SELF_HOSTED_HERE]]) {
      expect(Object.fromEntries(directives(visitorPagePolicy(videos)))).toEqual(OWN);
    }
  });

  it.each([
    ['Vimeo', VIMEO, { 'frame-src': ['https://player.vimeo.com'] }],
    ['Panda', PANDA, { 'frame-src': ['https://player-vz-a1b2c3d4-e5f.tv.pandavideo.com.br'] }],
    ['a generic embed', EMBED, { 'frame-src': ['https://videos.example.com'] }],
    [
      'a self-hosted stream on another host',
      SELF_HOSTED_CDN,
      {
        'style-src': [...OWN['style-src'], 'https://cdn.example.net'],
        'font-src': [...OWN['font-src'], 'https://cdn.example.net'],
        'connect-src': ["'self'", 'https://cdn.example.net'],
        'media-src': ["'self'", 'blob:', 'https://cdn.example.net'],
      },
    ],
    [
      'VTurb, whose player runs in the page',
      VTURB,
      {
        'script-src': ["'self'", ...VTURB_DOMAINS],
        'style-src': [...OWN['style-src'], ...VTURB_DOMAINS],
        'font-src': [...OWN['font-src'], ...VTURB_DOMAINS],
        'connect-src': ["'self'", ...VTURB_DOMAINS],
        'media-src': ["'self'", 'blob:', ...VTURB_DOMAINS],
      },
    ],
  ])('adds exactly what %s needs, and nothing else', (_name, source, added) => {
    expect(Object.fromEntries(directives(visitorPagePolicy([source])))).toEqual({ ...OWN, ...added });
  });

  it('covers every page of the funnel, each host once', () => {
    const policy = directives(visitorPagePolicy([VIMEO, PANDA, VIMEO, SELF_HOSTED_HERE, EMBED]));
    expect(policy.get('frame-src')).toEqual([
      'https://player.vimeo.com',
      'https://player-vz-a1b2c3d4-e5f.tv.pandavideo.com.br',
      'https://videos.example.com',
    ]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
  });

  it.each([
    ['a Vimeo id that is not one', video({ hostingVideo: 'VIMEO', videoId: 'javascript:alert(1)' })],
    [
      'a Panda URL on another host',
      video({ hostingVideo: 'PANDA', videoUrl: 'https://evil.example/embed/?v=1' }),
    ],
    [
      'a VTurb script on another host',
      video({ hostingVideo: 'VTURB', videoUrl: 'https://evil.example/a/players/b/player.js' }),
    ],
    [
      'an embed that is not http',
      video({ hostingVideo: 'EMBED', videoUrl: 'data:text/html,<script>1</script>' }),
    ],
  ])('adds nothing for %s: its player refuses it too', (_name, source) => {
    expect(Object.fromEntries(directives(visitorPagePolicy([source])))).toEqual(OWN);
  });

  it.each([
    [
      'an embed whose host carries a directive',
      video({ hostingVideo: 'EMBED', videoUrl: 'http://x.test;report-uri/' }),
    ],
    [
      'an embed whose host carries a list',
      video({ hostingVideo: 'EMBED', videoUrl: 'https://a.test,b.test/' }),
    ],
    ['a file on the host *', video({ hostingVideo: 'SELF_HOSTED', videoUrl: 'http://*/v.mp4' })],
    [
      'a file on a host with a ;',
      video({ hostingVideo: 'SELF_HOSTED', videoUrl: 'https://x.test;script-src/v.mp4' }),
    ],
    [
      'an embed with a user and password',
      video({ hostingVideo: 'EMBED', videoUrl: 'https://u:p@videos.example.com/' }),
    ],
  ])(
    'adds nothing for %s (a row saved before hosts were checked): no directive is rewritten',
    (_name, source) => {
      const policy = visitorPagePolicy([source]);
      expect(Object.fromEntries(directives(policy))).toEqual(OWN);
      expect(policy).not.toMatch(/report-uri\/|\*|script-src\/|,/);
    },
  );

  it("never frames this server's own pages: their sandbox would not hold", () => {
    const own = video({ hostingVideo: 'EMBED', videoUrl: 'http://localhost:3000/demo/other-lead' });
    expect(directives(visitorPagePolicy([own], ['localhost', '127.0.0.1'])).get('frame-src')).toEqual([
      "'none'",
    ]);
    // Another host is still framed.
    expect(directives(visitorPagePolicy([EMBED], ['localhost'])).get('frame-src')).toEqual([
      'https://videos.example.com',
    ]);
  });

  it('never allows inline or evaluated script', () => {
    const policy = directives(visitorPagePolicy([VIMEO, PANDA, VTURB, EMBED, SELF_HOSTED_CDN]));
    const scripts = policy.get('script-src') ?? [];
    expect(scripts.filter((s) => s.startsWith("'") && s !== "'self'")).toEqual([]);
    expect(scripts).not.toContain('https:');
    expect(scripts).not.toContain('*');
  });
});
