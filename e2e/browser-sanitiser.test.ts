import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ALLOWED_ATTRIBUTES,
  ALLOWED_LINK_TARGETS,
  ALLOWED_TAGS,
  ALLOWED_URL_SCHEMES,
  TAG_RENAMES,
  URL_ATTRIBUTES,
} from '@embudo/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeRichText } from '../apps/server/src/lib/sanitize';
import { seedDemo } from '../apps/server/src/modules/demo/demo.seed';
import { stripInvisible, styleViolations, urlViolation } from '../apps/server/test/policy-check';
import { startTestServer, type TestServer } from '../apps/server/test/server';
import { loadCorpora, type Payload } from '../apps/server/test/xss-corpus';
import { launchChromium } from './chromium';
import { installXssProbe, xssHits } from './xss-probe';

/**
 * The browser's sanitiser (apps/web/src/api/browser-sanitiser.ts, DOMPurify configured from the one
 * policy of visitor-behaviour §5) in real Chromium: built on its own with Vite and loaded into a blank local page
 * that records any script that runs; then in a real visitor page, on a page the browser fetches after
 * the first. Nothing may leave 127.0.0.1.
 */

const WEB_ROOT = fileURLToPath(new URL('../apps/web/', import.meta.url));
const SANITISER_SOURCE = fileURLToPath(new URL('../apps/web/src/api/browser-sanitiser.ts', import.meta.url));
/** The global name the IIFE bundle assigns its exports to. */
const GLOBAL_NAME = 'EmbudoSanitiser';

interface SanitiserWindow {
  EmbudoSanitiser: { sanitiseRichText: (html: string) => string };
}

const BLANK_PAGE = `<!doctype html>
<html>
  <head><meta charset="utf-8" /><title>Browser sanitiser</title><script src="/sanitiser.js"></script></head>
  <body></body>
</html>`;

// ---------------------------------------------------------------------------------------------------------
// What the sanitiser returned, taken apart in the browser, judged in Node.
// ---------------------------------------------------------------------------------------------------------

interface NodeInfo {
  /** Lower-case element name, or #comment etc. for nodes that are neither elements nor text. */
  tag: string;
  /** Namespace URI of an element; null for other nodes. */
  ns: string | null;
  attrs: [string, string][];
  /** For href and src: the URL's protocol as this browser resolves it. */
  protocols: [string, string][];
}

interface Inspection {
  /** What the sanitiser threw, for the payload, its output or the server's output. */
  errors: string[];
  /** The browser sanitiser's output for the payload. */
  out: string;
  /** The output sanitised again. */
  again: string;
  /** The output's nodes, parsed in an inert <template>. */
  nodes: NodeInfo[];
  /** The browser sanitiser's output for the server's output. */
  browserOnServer: string;
  /** Canonical trees (tags, sorted attributes, text) of the server's output and of browserOnServer. */
  serverTree: string;
  browserOnServerTree: string;
}

/** Runs in the page. Self-contained: it may use nothing from this module's scope. */
function inspect(arg: { html: string; server: string }): Inspection {
  const sanitise = (window as unknown as SanitiserWindow).EmbudoSanitiser.sanitiseRichText;
  const XHTML = 'http://www.w3.org/1999/xhtml';
  const parse = (html: string): DocumentFragment => {
    const template = document.createElement('template');
    template.innerHTML = html;
    template.content.normalize();
    return template.content;
  };
  // Declaration order kept; only the spelling of `prop: value;` is made uniform.
  const canonicalStyle = (style: string) =>
    style
      .split(';')
      .map((d) => d.trim())
      .filter((d) => d !== '')
      .map((d) => {
        const colon = d.indexOf(':');
        return colon < 0 ? d : `${d.slice(0, colon).trim().toLowerCase()}:${d.slice(colon + 1).trim()}`;
      })
      .join(';');
  const tree = (node: Node): string => {
    if (node instanceof Element) {
      const name =
        node.namespaceURI === XHTML ? node.localName : `${node.namespaceURI ?? ''}|${node.localName}`;
      const attrs = [...node.attributes]
        .map((a) => [a.name, a.name === 'style' ? canonicalStyle(a.value) : a.value] as const)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([n, v]) => ` ${n}=${JSON.stringify(v)}`)
        .join('');
      return `<${name}${attrs}>${[...node.childNodes].map(tree).join('')}</${name}>`;
    }
    if (node.nodeType === Node.TEXT_NODE) return JSON.stringify(node.nodeValue);
    if (node instanceof DocumentFragment) return [...node.childNodes].map(tree).join('');
    return `<${node.nodeName} ${JSON.stringify(node.nodeValue)}>`;
  };
  const describeNodes = (root: DocumentFragment): NodeInfo[] => {
    const out: NodeInfo[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ALL);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) continue;
      if (!(node instanceof Element)) {
        out.push({ tag: node.nodeName.toLowerCase(), ns: null, attrs: [], protocols: [] });
        continue;
      }
      const protocols: [string, string][] = [];
      for (const name of ['href', 'src']) {
        const value = node.getAttribute(name);
        if (value === null) continue;
        let protocol = '(unparsable)';
        try {
          protocol = new URL(value, document.baseURI).protocol;
        } catch {
          // left as (unparsable)
        }
        protocols.push([name, protocol]);
      }
      out.push({
        tag: node.localName.toLowerCase(),
        ns: node.namespaceURI,
        attrs: [...node.attributes].map((a) => [a.name, a.value]),
        protocols,
      });
    }
    return out;
  };
  const errors: string[] = [];
  // A throw is a finding (the visitor's page fetch would fail), not the end of the run.
  const attempt = (what: string, html: string): string => {
    try {
      return sanitise(html);
    } catch (error) {
      errors.push(`throws on ${what} ${JSON.stringify(html)}: ${String(error)}`);
      return '';
    }
  };
  const out = attempt('the payload', arg.html);
  const browserOnServer = attempt("the server's output", arg.server);
  return {
    errors,
    out,
    again: attempt('its own output', out),
    nodes: describeNodes(parse(out)),
    browserOnServer,
    serverTree: tree(parse(arg.server)),
    browserOnServerTree: tree(parse(browserOnServer)),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The policy of contracts, applied to the browser's nodes.
// ---------------------------------------------------------------------------------------------------------

const hasOwn = (record: object, key: string): boolean => Object.prototype.hasOwnProperty.call(record, key);
const XHTML = 'http://www.w3.org/1999/xhtml';
/** Tags as they may appear in output: the allowed ones, each renamed (so no `b`: it becomes `strong`). */
const OUTPUT_TAGS: ReadonlySet<string> = new Set(
  ALLOWED_TAGS.map((tag) => (hasOwn(TAG_RENAMES, tag) ? (TAG_RENAMES[tag] ?? tag) : tag)),
);
const URL_ATTRS: ReadonlySet<string> = new Set(URL_ATTRIBUTES);
const PROTOCOLS: ReadonlySet<string> = new Set(ALLOWED_URL_SCHEMES.map((scheme) => `${scheme}:`));
const LINK_TARGETS: ReadonlySet<string> = new Set(ALLOWED_LINK_TARGETS);
const SCRIPT_URL = /^(javascript|vbscript|livescript|data):/i;

function allowedAttributesOf(tag: string): ReadonlySet<string> {
  const everywhere = ALLOWED_ATTRIBUTES['*'] ?? [];
  const own = hasOwn(ALLOWED_ATTRIBUTES, tag) ? (ALLOWED_ATTRIBUTES[tag] ?? []) : [];
  return new Set([...everywhere, ...own]);
}

/** Every way one output node breaks the policy. */
function nodeViolations(node: NodeInfo): string[] {
  if (node.ns === null) return [`${node.tag} node (only elements and text may remain)`];
  const out: string[] = [];
  if (!OUTPUT_TAGS.has(node.tag)) out.push(`tag <${node.tag}> is not allowed`);
  if (node.ns !== XHTML) out.push(`<${node.tag}> in namespace ${node.ns}`);
  const allowed = allowedAttributesOf(node.tag);
  for (const [name, value] of node.attrs) {
    const where = `<${node.tag} ${name}=${JSON.stringify(value)}>`;
    if (name.toLowerCase().startsWith('on')) out.push(`${where}: event-handler attribute`);
    if (SCRIPT_URL.test(stripInvisible(value))) out.push(`${where}: script or data URL`);
    if (!allowed.has(name)) out.push(`${where}: attribute not allowed on <${node.tag}>`);
    if (URL_ATTRS.has(name)) {
      const why = urlViolation(value);
      if (why !== undefined) out.push(`${where}: ${why}`);
    }
    if (name === 'style') for (const why of styleViolations(value)) out.push(`${where}: ${why}`);
    if (name === 'target' && !LINK_TARGETS.has(value)) out.push(`${where}: link target not allowed`);
  }
  for (const [name, protocol] of node.protocols) {
    if (!PROTOCOLS.has(protocol)) out.push(`<${node.tag} ${name}> resolves to a ${protocol} URL`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The cases of visitor-behaviour §5, one per rule and value form.
// ---------------------------------------------------------------------------------------------------------

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;
const STYLED = ['span', 'div', 'p', ...HEADINGS] as const;

/** Input the policy allows, already in the sanitiser's spelling: the output must be the input. */
const KEPT: [string, string][] = [
  ...['p', 'span', 'strong', 'em', 'u', 'i', 'div', ...HEADINGS].map((tag): [string, string] => [
    `tag <${tag}>`,
    `<${tag}>text</${tag}>`,
  ]),
  ['tag <br>', 'one<br>two'],
  ['tags <ul> and <li>', '<ul><li>one</li><li>two</li></ul>'],
  ['tags <ol> and <li>', '<ol><li>one</li></ol>'],
  ['tag <a> with href', '<a href="https://example.com/">link</a>'],
  // Images point at 127.0.0.1: sanitising one starts its download (see the test on requests).
  ['tag <img> with src and alt', '<img src="/a.png" alt="a picture">'],
  ...STYLED.map((tag): [string, string] => [
    `style on <${tag}>`,
    `<${tag} style="color:#1a2b3c">text</${tag}>`,
  ]),
  ['style on <a>', '<a href="/x" style="color:#1a2b3c">link</a>'],
  ['style on <img>', '<img src="/a.png" style="margin:4px">'],
  ['target _blank on <a>', '<a href="/x" target="_blank">link</a>'],
  ['target _self on <a>', '<a href="/x" target="_self">link</a>'],
  ...[...OUTPUT_TAGS]
    .filter((tag) => tag !== 'br' && tag !== 'img')
    .map((tag): [string, string] => [`class on <${tag}>`, `<${tag} class="k">text</${tag}>`]),
  ['class on <br>', 'a<br class="k">b'],
  ['class on <img>', '<img class="k" src="/a.png">'],
  ['text-decoration underline', '<span style="text-decoration:underline">t</span>'],
  ['color as 6-digit hex', '<span style="color:#A0b1C2">t</span>'],
  ['color as rgb()', '<span style="color:rgb(1, 22, 255)">t</span>'],
  ['color as rgba()', '<span style="color:rgba(1, 22, 255, 0.5)">t</span>'],
  ['background-color as 6-digit hex', '<span style="background-color:#ffee00">t</span>'],
  ['background-color as rgb()', '<span style="background-color:rgb(0,0,0)">t</span>'],
  ['background-color as rgba()', '<span style="background-color:rgba(0,0,0,1)">t</span>'],
  ['font-weight bold', '<span style="font-weight:bold">t</span>'],
  ['font-weight normal', '<span style="font-weight:normal">t</span>'],
  ['font-weight digits', '<span style="font-weight:700">t</span>'],
  ['font-style italic', '<span style="font-style:italic">t</span>'],
  ['font-style normal', '<span style="font-style:normal">t</span>'],
  ...['left', 'center', 'right', 'justify'].map((align): [string, string] => [
    `text-align ${align}`,
    `<p style="text-align:${align}">t</p>`,
  ]),
  ...['12px', '1.5em', '2rem', '150%'].map((size): [string, string] => [
    `font-size ${size}`,
    `<span style="font-size:${size}">t</span>`,
  ]),
  ['line-height as a number', '<p style="line-height:1.5">t</p>'],
  ['line-height in px', '<p style="line-height:24px">t</p>'],
  ...['margin', 'padding'].flatMap((property) =>
    ['4px', '1px 2px', '1px 2px 3px', '0 2px 3.5px 4px'].map((value): [string, string] => [
      `${property} with ${value.split(' ').length} value(s)`,
      `<div style="${property}:${value}">t</div>`,
    ]),
  ),
  [
    'several allowed declarations',
    '<span style="color:#000000;font-weight:bold;text-decoration:underline">t</span>',
  ],
  ...['http://example.com/', 'https://example.com/', 'ftp://example.com/f', 'mailto:a@example.com'].map(
    (url): [string, string] => [`link scheme ${url.split(':')[0] ?? ''}`, `<a href="${url}">x</a>`],
  ),
  ['link scheme tel', '<a href="tel:+5215512345678">x</a>'],
  ['a relative link', '<a href="/pagina/2?x=1#top">x</a>'],
  ['a relative image', '<img src="img/a.png">'],
  ['an https image', '<img src="https://127.0.0.1:9/a.png">'],
];

/** Input that breaks a rule: the sanitiser's exact output (what is left), per rule. */
const REMOVED: [string, string, string][] = [
  ['b becomes strong', '<b>bold</b>', '<strong>bold</strong>'],
  ['b becomes strong, keeping class', '<b class="k">bold</b>', '<strong class="k">bold</strong>'],
  ['a disallowed tag keeps its text', '<section>kept <em>text</em></section>', 'kept <em>text</em>'],
  ['<font> keeps its text', '<font color="red">kept</font>', 'kept'],
  ['<marquee> keeps its text', '<marquee>kept</marquee>', 'kept'],
  ['<script> content is dropped', 'a<script>alert(1)</script>b', 'ab'],
  ['<style> content is dropped', 'a<style>p{color:red}</style>b', 'ab'],
  ['<iframe> is dropped', 'a<iframe src="https://example.com/"></iframe>b', 'ab'],
  ['javascript: link', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
  ['javascript: link in mixed case', '<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
  ['javascript: link with a tab', '<a href="java\tscript:alert(1)">x</a>', '<a>x</a>'],
  ['javascript: link as entities', '<a href="&#106;avascript&colon;alert(1)">x</a>', '<a>x</a>'],
  ['javascript: link after spaces', '<a href=" \u00a0javascript:alert(1)">x</a>', '<a>x</a>'],
  ['data: link', '<a href="data:text/html,<script>alert(1)</script>">x</a>', '<a>x</a>'],
  ['vbscript: link', '<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
  ['data: image', '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="a">', '<img alt="a">'],
  ['javascript: image', '<img src="javascript:alert(1)">', '<img>'],
  ['another scheme', '<a href="ftps://example.com/">x</a>', '<a>x</a>'],
  // Not a relative link: it names a host (policy-check's rule; the server drops it too).
  ['a protocol-relative link', '<a href="//evil.example/">x</a>', '<a>x</a>'],
  ['a protocol-relative link with backslashes', '<a href="\\\\evil.example/">x</a>', '<a>x</a>'],
  ['a protocol-relative image', '<img src="/\\evil.example/a.png">', '<img>'],
  ['a disallowed target', '<a href="/x" target="_top">x</a>', '<a href="/x">x</a>'],
  ['!important', '<span style="color:#ff0000 !important">t</span>', '<span>t</span>'],
  [
    '!important next to an allowed declaration',
    '<span style="color:#ff0000 ! important;font-weight:bold">t</span>',
    '<span style="font-weight:bold">t</span>',
  ],
  ['expression()', '<span style="width:expression(alert(1))">t</span>', '<span>t</span>'],
  ['expression() as a colour', '<span style="color:expression(alert(1))">t</span>', '<span>t</span>'],
  ['3-digit hex', '<span style="color:#f00">t</span>', '<span>t</span>'],
  ['named colour', '<span style="color:red">t</span>', '<span>t</span>'],
  ['named background colour', '<span style="background-color:yellow">t</span>', '<span>t</span>'],
  [
    'position, keeping the allowed declaration',
    '<span style="position:fixed;color:#ff0000">t</span>',
    '<span style="color:#ff0000">t</span>',
  ],
  ['url() in a style', '<span style="background-color:url(https://example.com/)">t</span>', '<span>t</span>'],
  [
    'text-decoration other than underline',
    '<span style="text-decoration:line-through">t</span>',
    '<span>t</span>',
  ],
  ['font-size in pt', '<span style="font-size:12pt">t</span>', '<span>t</span>'],
  ['line-height in em', '<p style="line-height:1.5em">t</p>', '<p>t</p>'],
  ['margin in em', '<div style="margin:1em">t</div>', '<div>t</div>'],
  ['margin with 5 values', '<div style="margin:1px 2px 3px 4px 5px">t</div>', '<div>t</div>'],
  ['padding auto', '<div style="padding:auto">t</div>', '<div>t</div>'],
  ['text-align start', '<p style="text-align:start">t</p>', '<p>t</p>'],
  ['font-style oblique', '<span style="font-style:oblique">t</span>', '<span>t</span>'],
  ['onclick', '<span onclick="alert(1)">t</span>', '<span>t</span>'],
  ['onerror on an image', '<img src="x" onerror="alert(1)">', '<img src="x">'],
  ['id', '<span id="x">t</span>', '<span>t</span>'],
  ['data-*', '<span data-x="1" data-user-id="2">t</span>', '<span>t</span>'],
  ['style on a tag without it (<strong>)', '<strong style="color:#ff0000">t</strong>', '<strong>t</strong>'],
  ['style on a tag without it (<li>)', '<ul><li style="color:#ff0000">t</li></ul>', '<ul><li>t</li></ul>'],
  ['href on a tag without it', '<span href="/x">t</span>', '<span>t</span>'],
  ['src on a tag without it', '<p src="/x">t</p>', '<p>t</p>'],
  ['alt on a tag without it', '<a href="/x" alt="x">t</a>', '<a href="/x">t</a>'],
  ['title', '<span title="x">t</span>', '<span>t</span>'],
  ['a comment', 'a<!-- c -->b', 'ab'],
  // The HTML parser lets a <frameset> replace the body: nothing is left, and nothing may throw.
  ['<frameset>', '<frameset onload="alert(1)">', ''],
];

/** Output of the server that a browser pass could change: attribute values with markup-like text. */
const AGREEMENT: [string, string][] = [
  ['alt text holding "-->"', '<img src="/a.png" alt="a --> b">'],
  ['alt text holding "]>"', '<img src="/a.png" alt="x]>y">'],
  ['alt text holding "</style>"', '<img src="/a.png" alt="see </style> here">'],
  ['alt text holding "/>"', '<img src="/a.png" alt="a/>b">'],
  ['a link whose query holds "</title>"', '<a href="/search?q=</title>">x</a>'],
];

// ---------------------------------------------------------------------------------------------------------
// The run.
// ---------------------------------------------------------------------------------------------------------

const corpora = await loadCorpora();
const loaded = corpora instanceof Error ? { dompurify: [], h5scVectors: [], h5scItems: [] } : corpora;

/** The hostile page the route answers the browser's next page fetch with. */
/** How Chromium says the page's policy refused an inline event handler. */
const INLINE_HANDLER_REFUSED =
  'Executing inline event handler violates the following Content Security Policy directive';

const HOSTILE_HEADLINE =
  '<img src=x onerror=alert(1)><b onclick=alert(2)>Bold</b><a href="javascript:alert(3)">x</a>';
const HOSTILE_BUTTON =
  '<b onclick=alert(4)>Go</b><img src=x onerror=alert(5)><a href="javascript:alert(6)">on</a>';

interface Finding {
  payload: string;
  html: string;
  problems: string[];
}

describe('the browser sanitiser in Chromium (architecture §5.8)', () => {
  let outDir = '';
  let bundle = '';
  let http: Server;
  let origin = '';
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let current = '(setup)';
  /** Events of the instrumented pages: dialogs, page errors, console output, popups. */
  const events: string[] = [];
  /** Every request for another host than 127.0.0.1, with what was running when it was made. */
  const remote: string[] = [];

  /** Records and aborts every request for another host; records page events. */
  async function instrument(target: BrowserContext): Promise<void> {
    await installXssProbe(target);
    // Recorded as the browser makes it (routed or not), then aborted before any network.
    target.on('request', (request) => {
      const url = request.url();
      if (/^(https?|wss?|ftp):/i.test(url) && new URL(url).hostname !== '127.0.0.1') {
        remote.push(`${current}: ${url}`);
      }
    });
    await target.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort('blockedbyclient'),
    );
    target.on('page', (opened) => {
      opened.on('dialog', (dialog) => {
        events.push(`${current}: dialog ${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss().catch(() => undefined);
      });
      opened.on('pageerror', (error) => events.push(`${current}: page error: ${error.message}`));
      opened.on('console', (message) => {
        // A failed image (404 or aborted) is logged by the browser itself, not by a payload.
        if (message.text().startsWith('Failed to load resource')) return;
        // React's development build greets the console.
        if (message.text().includes('Download the React DevTools')) return;
        // Under the visitor page's Content-Security-Policy, Chromium reports each handler attribute
        // the sanitiser's inert parse meets (DOMParser), though no such handler could ever run there.
        if (message.text().startsWith(INLINE_HANDLER_REFUSED)) return;
        events.push(`${current}: console.${message.type()}: ${message.text()}`);
      });
      opened.on('popup', (popup) => events.push(`${current}: popup ${popup.url()}`));
    });
  }

  const hits = (target: Page = page) => xssHits(target);
  /**
   * A local request made now: once it has finished, any request the page made before it has been
   * seen, so a remote request is put down to the case that caused it.
   */
  const barrier = async () => {
    await Promise.all([
      page.waitForEvent('requestfinished', (request) => request.url() === `${origin}/__barrier`),
      page.evaluate(() => fetch('/__barrier').then((response) => response.status)),
    ]);
  };
  const sanitise = async (html: string) => {
    const out = await page.evaluate(
      (h) => (window as unknown as SanitiserWindow).EmbudoSanitiser.sanitiseRichText(h),
      html,
    );
    await barrier();
    return out;
  };

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'embudo-browser-sanitiser-'));
    // The sanitiser alone, as the app's lazy chunk would run it: same source, same production define.
    await build({
      configFile: false,
      root: WEB_ROOT,
      publicDir: false,
      logLevel: 'warn',
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir,
        emptyOutDir: true,
        target: 'es2020',
        minify: false,
        rolldownOptions: {
          input: SANITISER_SOURCE,
          // An app build drops an entry's exports by default; the page calls this one.
          preserveEntrySignatures: 'exports-only',
          output: { format: 'iife', name: GLOBAL_NAME, entryFileNames: 'sanitiser.js' },
        },
      },
    });
    bundle = await readFile(join(outDir, 'sanitiser.js'), 'utf8');
    http = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      if (path === '/') {
        response.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
        });
        response.end(BLANK_PAGE);
      } else if (path === '/sanitiser.js') {
        response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        response.end(bundle);
      } else {
        // Relative images of payloads land here.
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('not found');
      }
    });
    await new Promise<void>((resolve) => {
      http.listen(0, '127.0.0.1', () => {
        resolve();
      });
    });
    const address = http.address();
    origin = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
    browser = await launchChromium();
    context = await browser.newContext();
    await instrument(context);
    page = await context.newPage();
    await page.goto(`${origin}/`);
  });

  afterAll(async () => {
    await browser.close();
    await new Promise((resolve) => http.close(resolve));
    await rm(outDir, { recursive: true, force: true });
  });

  it('loads the bundle and the corpora; the instrumentation sees script and remote requests (self-test)', async () => {
    current = 'self-test';
    if (corpora instanceof Error) expect.fail(`cannot load the XSS corpora: ${corpora.message}`);
    expect(loaded.dompurify.length + loaded.h5scVectors.length + loaded.h5scItems.length).toBe(511);
    expect(
      await page.evaluate(() => typeof (window as unknown as Partial<SanitiserWindow>).EmbudoSanitiser),
    ).toBe('object');
    expect(await sanitise('<b>x</b>')).toBe('<strong>x</strong>');
    expect(await hits()).toEqual([]);
    // Positive controls: a live handler runs and is recorded, with its eval and string timer; a
    // remote request is seen.
    await page.evaluate(() => {
      const holder = document.createElement('div');
      holder.innerHTML =
        "<img src=\"/missing.png\" onerror=\"alert('control'); eval('1'); setTimeout('2')\">";
      document.body.append(holder);
    });
    await expect.poll(() => hits()).toEqual(['alert(control)', 'eval(1)', 'setTimeout with a string(2)']);
    await page.evaluate(() => fetch('http://remote.invalid/probe').catch(() => null));
    await expect.poll(() => remote).toContain('self-test: http://remote.invalid/probe');
    // A fresh page for the corpora: nothing recorded so far is theirs.
    remote.length = 0;
    events.length = 0;
    await page.goto(`${origin}/`);
    expect(await hits()).toEqual([]);
  });

  /** Each corpus's results, computed by its first test and judged by the others. */
  const results = new Map<string, { payload: Payload; server: string; result: Inspection }[]>();

  /** One line per failing payload: its name, the payload, the browser's output and the problems. */
  function judge(label: string, check: (entry: { server: string; result: Inspection }) => string[]) {
    const entries = results.get(label) ?? expect.unreachable(`the first ${label} test ran`);
    const findings: Finding[] = [];
    for (const entry of entries) {
      const problems = [...new Set(check(entry))];
      if (problems.length > 0) {
        findings.push({
          payload: entry.payload.name,
          html: entry.payload.html,
          problems: [`output: ${JSON.stringify(entry.result.out)}`, ...problems],
        });
      }
    }
    const report = findings.map(
      (f) => `${f.payload}\n  payload: ${JSON.stringify(f.html)}\n  - ${f.problems.join('\n  - ')}`,
    );
    expect(report, `${findings.length} of ${entries.length} payloads failed`).toEqual([]);
  }

  const corpusTests = (label: string, payloads: readonly Payload[]) => {
    describe(`${label}: ${payloads.length} payloads`, () => {
      it('sanitises each without throwing, and runs no script', async () => {
        expect(payloads.length).toBeGreaterThan(0);
        events.length = 0;
        const entries = [];
        for (const payload of payloads) {
          current = payload.name;
          const server = sanitizeRichText(payload.html);
          entries.push({
            payload,
            server,
            result: await page.evaluate(inspect, { html: payload.html, server }),
          });
          await barrier();
        }
        results.set(label, entries);
        expect(await hits(), 'script ran while sanitising').toEqual([]);
        expect(events).toEqual([]);
        judge(label, ({ result }) => result.errors);
      }, 600_000);

      it('leaves only allowed tags (no b), attributes, styles, schemes and targets, and no on*', () => {
        judge(label, ({ result }) => result.nodes.flatMap(nodeViolations));
      });

      it('is idempotent: its output sanitised again is the same string', () => {
        judge(label, ({ result }) =>
          result.again === result.out ? [] : [`sanitised again: ${JSON.stringify(result.again)}`],
        );
      });

      it("leaves the server's output unchanged in meaning (same tags, attributes and text)", () => {
        judge(label, ({ server, result }) =>
          result.browserOnServerTree === result.serverTree
            ? []
            : [
                `server output ${JSON.stringify(server)} became ${JSON.stringify(result.browserOnServer)}`,
                `server tree:  ${result.serverTree}`,
                `browser tree: ${result.browserOnServerTree}`,
              ],
        );
      });
    });
  };

  corpusTests('DOMPurify corpus', loaded.dompurify);
  corpusTests('H5SC vectors', loaded.h5scVectors);
  corpusTests('H5SC items', loaded.h5scItems);

  describe('visitor-behaviour §5, rule by rule', () => {
    it.each(KEPT)('keeps %s', async (_rule, html) => {
      current = `kept: ${html}`;
      expect(await sanitise(html)).toBe(html);
    });

    it.each(REMOVED)('removes %s', async (_rule, html, expected) => {
      current = `removed: ${html}`;
      expect(await sanitise(html)).toBe(expected);
    });

    it('requests nothing while sanitising (a remote image is not fetched before it is shown)', async () => {
      current = 'sanitising a remote image';
      const before = remote.length;
      const html = '<img src="https://images.example/pixel.png" alt="p">';
      // sanitise() waits for its barrier request: a download the sanitiser started was seen by then.
      expect(await sanitise(html)).toBe(html);
      expect(remote.slice(before)).toEqual([]);
    });

    // The server keeps these attribute values (within policy): the browser must keep them too.
    it.each(AGREEMENT)("keeps the server's output of %s", async (_case, html) => {
      current = `agreement: ${html}`;
      const server = sanitizeRichText(html);
      const result = await page.evaluate(inspect, { html, server });
      expect(result.errors).toEqual([]);
      expect(result.browserOnServer).not.toBe('');
      expect(result.browserOnServerTree).toBe(result.serverTree);
    });

    it('ran no script for any rule', async () => {
      expect(await hits()).toEqual([]);
      expect(events).toEqual([]);
    });
  });

  it('shows a hostile next page sanitised in a real visitor page, and runs none of it', async () => {
    current = 'visitor page';
    events.length = 0;
    const remoteBefore = remote.length;
    const server: TestServer = await startTestServer('sqlite', {
      RATE_LIMIT_PER_MINUTE: '0',
      PIXEL_WORKER: 'off',
    });
    const visitor = await browser.newContext();
    try {
      await instrument(visitor);
      const demo = await seedDemo(server.services, server.url);
      const funnel = demo.funnels[0] ?? expect.unreachable('the demo has a VSL funnel');
      const lead = funnel.leads[0] ?? expect.unreachable('the VSL funnel has a lead');
      const tab = await visitor.newPage();
      await tab.goto(lead.url);
      expect(await tab.locator('.headline').textContent()).toContain('Clase 1');

      // The next page the browser fetches carries hostile rich text the server never saw.
      const answered: string[] = [];
      await tab.route('**/api/funnel/site', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { data: Record<string, unknown> | null };
        if (body.data) {
          body.data.headline = HOSTILE_HEADLINE;
          body.data.buttonCopy = HOSTILE_BUTTON;
          answered.push(String(body.data.idPage));
        }
        await route.fulfill({ response, json: body });
      });

      // As a visitor: tap, play (double speed), wait for the button, click it (NEXT-PAGE reloads data).
      await tab.locator('video').waitFor({ state: 'attached' });
      await tab.mouse.click(2, 2);
      await tab.evaluate(async () => {
        const video = document.querySelector('video');
        if (!video) throw new Error('no video');
        video.playbackRate = 2;
        await video.play();
      });
      await expect
        .poll(() => tab.locator('.cta').evaluate((el) => getComputedStyle(el).visibility === 'visible'), {
          timeout: 30_000,
        })
        .toBe(true);
      await tab.locator('.cta-button').click();
      await expect.poll(() => tab.locator('.headline').textContent(), { timeout: 20_000 }).toContain('Bold');
      expect(answered.length).toBeGreaterThanOrEqual(1);

      const shown = await tab.evaluate(() => {
        const html = (selector: string) => document.querySelector(selector)?.innerHTML ?? null;
        const attrs = [...document.querySelectorAll('.headline *, .cta-copy *')].flatMap((el) =>
          [...el.attributes].map((a) => `${el.localName} ${a.name}=${a.value}`),
        );
        return {
          headline: html('.headline'),
          copy: html('.cta-copy'),
          attrs,
          bold: document.querySelectorAll('.headline b, .cta-copy b').length,
        };
      });
      // Exactly the policy's result: handlers and the javascript: href gone, b now strong, text kept.
      expect(shown.headline).toBe('<img src="x"><strong>Bold</strong><a>x</a>');
      expect(shown.copy).toBe('<strong>Go</strong><img src="x"><a>on</a>');
      expect(shown.attrs.filter((a) => / on\w+=|javascript:/i.test(a))).toEqual([]);
      expect(shown.bold).toBe(0);
      // The broken images have had time to fail: their handlers would have run by now.
      await expect
        .poll(() =>
          tab.evaluate(() =>
            [...document.querySelectorAll<HTMLImageElement>('.headline img, .cta-copy img')].every(
              (img) => img.complete,
            ),
          ),
        )
        .toBe(true);
      expect(await hits(tab)).toEqual([]);
      expect(events).toEqual([]);
      expect(remote.slice(remoteBefore), 'requests for other hosts from the visitor page').toEqual([]);
    } finally {
      await visitor.close();
      await server.close();
    }
  }, 120_000);

  it('let no request leave for another host than 127.0.0.1', () => {
    expect(remote).toEqual([]);
  });
});
