import { EndReason, FomoSite, SiteType, StartReason, VideoState } from '@embudo/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../test/databases';
import { markDomainVerified } from '../../test/fixtures';
import { api, startTestServer, type TestServer } from '../../test/server';
import { wellFormed } from '../lib/json';
import { seedDemo } from '../modules/demo/demo.seed';

/**
 * Every public route (the visitor API, the operator endpoints, the visitor pages, and the unprefixed
 * twins of the visitor API) takes at least 1,000 generated requests, about half shaped like its contract
 * and half malformed, and never answers a 5xx or shows a stack trace. The route list is the OpenAPI
 * document's public paths plus the hidden twins and pages; a public path with no generator fails.
 *
 * Each route is one fast-check run of RUNS requests. Every answer is judged, and each kind of problem is
 * kept with its smallest example instead of stopping at the first: a route always gets all its requests,
 * and a failure lists every distinct bug at once. The seed is in each test name; the whole run replays
 * with PROPERTY_SEED=<first seed> (each route adds its place in the table).
 */

const SEED = Number(process.env.PROPERTY_SEED ?? 20_250_611);
const RUNS = 1000;
const KB = 1024;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
type Bytes = Uint8Array<ArrayBuffer>;
type Kind = 'well-formed' | 'malformed';

/** What the generators share: real tokens, ids and sessions of the seeded demo. */
interface Fixture {
  url: string;
  leadTokens: string[];
  previewTokens: string[];
  slugs: string[];
  funnelIds: string[];
  pageIds: string[];
  sessionIds: string[];
  /** Each session with the token of the lead it belongs to. */
  sessions: { token: string; id: string }[];
  customHost: string;
}

/** One generated request before the route's path prefix is applied. */
interface Draft {
  what: string;
  /** Values for the path template's {params}, already URL-encoded. */
  params?: Record<string, string>;
  /** Replaces the whole path (visitor pages only). */
  rawPath?: string;
  /** With its leading '?'. */
  query?: string;
  headers?: Record<string, string>;
  body?: string | Bytes;
}

interface Generators {
  wellFormed: fc.Arbitrary<Draft>;
  malformed: fc.Arbitrary<Draft>;
}

interface RouteSpec {
  method: Method;
  /** As the OpenAPI document writes it; visitor pages are '/{slug}/{token}'. */
  path: string;
  /** The same route answers without the /api prefix (architecture §5.1). */
  twin: boolean;
  /** Errors carry the visitor envelope, whose codeResponse must be the HTTP status. */
  envelope: boolean;
  /** May not be wired yet (POST /api/funnel/track/pixel): then its 404 "no route" is fine, a 5xx is not. */
  optional?: true;
  /** Not in the OpenAPI document by design. */
  hidden?: true;
  /** Its 404 is an answer, not an error (GET /internal/tls/ask: {served: false}). */
  plainAnswers?: true;
  generators: (f: Fixture) => Generators;
}

/** A route as the tests address it: one entry per prefix. */
interface RouteCase {
  name: string;
  spec: RouteSpec;
  prefix: '/api' | '';
  /** This route's fast-check seed: SEED plus its place in the table. */
  seed: number;
}

// ---------------------------------------------------------------------------------------------------
// Values

/** A literal JSON text placed as is in a serialised body: numbers JSON.stringify cannot write, deep nesting. */
class RawJson {
  constructor(readonly text: string) {}
}

const RAW_MARK = '__raw_json_5e1f__';

/** JSON.stringify, with RawJson values written verbatim; undefined when there is nothing to write. */
function serialize(value: unknown): string | undefined {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) =>
    item instanceof RawJson ? `${RAW_MARK}${raws.push(item.text) - 1}` : item,
  ) as string | undefined;
  return text?.replace(new RegExp(`"${RAW_MARK}(\\d+)"`, 'g'), (_m, i: string) => raws[Number(i)] ?? 'null');
}

/** Whatever fc.anything() gives, as the text a careless client would send. */
function serializeAnything(value: unknown): string {
  try {
    return serialize(value) ?? String(value);
  } catch {
    // BigInt and friends.
    try {
      return String(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

const EDGE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  "' or '1'='1",
  '"; drop table leads; --',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  '../../../etc/passwd',
  '%00',
  '\\u0000',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  'null',
  'undefined',
  'NaN',
  '\r\n',
  '\u2028\u2029',
  '\uFEFF',
  '\u202Eevil',
  '𝕏😀👩‍👩‍👧',
  'Z̷̢̛a̵l̶g̴o̶',
  'e\u0301',
  '\uD800',
  '\uDFFF\uD800',
];

/** A string for a field of at most `max` characters: mostly plausible, sometimes at or over the limit. */
function text(max: number): fc.Arbitrary<string> {
  const small = Math.min(max, 40);
  return fc.oneof(
    { weight: 5, arbitrary: fc.string({ maxLength: small }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: Math.min(max, 20) }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: Math.min(max, 20) }) },
    {
      weight: 1,
      arbitrary: fc.string({
        unit: fc.oneof(loneSurrogate, fc.constant('\u0000'), fc.string({ minLength: 1, maxLength: 1 })),
        maxLength: 12,
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(max, max + 1, Math.ceil(max / 2) + 1),
          fc.constantFrom('x', 'é', '😀', '\u0000'),
        )
        .map(([n, c]) => c.repeat(c.length > 1 ? Math.ceil(n / 2) : n)),
    },
  );
}

const EXTREME_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  86_400,
  86_400.000_001,
  86_401,
  8.64e15,
  8.64e15 + 1,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MIN_SAFE_INTEGER,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.EPSILON,
  1e21,
  0.1 + 0.2,
  Number.NaN,
  Number.POSITIVE_INFINITY,
];

const RAW_NUMBERS = [
  '1e999',
  '-1e999',
  '1e-999',
  '-0',
  '123456789012345678901234567890',
  '0.00000000000000000000000000000001',
  '1E+308',
  '8640000000000001',
  '-8640000000000000',
  '9007199254740993',
];

const extremeNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(...EXTREME_NUMBERS),
  fc.constantFrom(...RAW_NUMBERS).map((t) => new RawJson(t)),
);

/** A number field: mostly in range, sometimes extreme. */
const num = (valid: fc.Arbitrary<number>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 5, arbitrary: valid }, { weight: 2, arbitrary: extremeNumber });

const ISO_EDGES = [
  '2024-02-29T12:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-04-31T10:00:00Z',
  '2024-01-01T24:00:00Z',
  '2024-01-01T23:59:60Z',
  '2024-01-01T00:00:00+99:99',
  '2024-01-01T00:00:00.123456789Z',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999-23:59',
  '1970-01-01T00:00:00Z',
  '2024-01-01',
  '2024-01-01T00:00:00',
  'today',
];

const clientTime: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 8.64e15 }) },
  {
    weight: 2,
    arbitrary: fc
      .date({ noInvalidDate: true, min: new Date(0), max: new Date('9999-12-31T23:59:59.999Z') })
      .map((d) => d.toISOString()),
  },
  { weight: 1, arbitrary: fc.constantFrom(...ISO_EDGES) },
  { weight: 1, arbitrary: extremeNumber },
  { weight: 1, arbitrary: text(40) },
);

/** An enum field: mostly one of its values, sometimes another word. */
function enumOf(values: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...values) },
    { weight: 1, arbitrary: fc.constantFrom(...values).map((v) => v.toLowerCase()) },
    { weight: 1, arbitrary: text(20) },
  );
}

/** A value of the wrong type, for a field that expects something else. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, '', 0, -1, [null], { $ne: null }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A field that is usually right and sometimes of the wrong type. */
const field = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 9, arbitrary: valid }, { weight: 1, arbitrary: wrongValue });

const deepArray = (depth: number): RawJson => new RawJson('['.repeat(depth) + ']'.repeat(depth));

/** Free-form `details`: nested junk, odd keys, sometimes deep or large. */
function junkRecord(limit: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.dictionary(text(110), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 }) },
    { weight: 2, arbitrary: fc.object({ maxDepth: 3, maxKeys: 5 }) },
    { weight: 1, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1, max: Math.floor(limit / 2) - 200 })
        .map((depth) => ({ deep: deepArray(depth) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 10, max: Math.floor(limit / 3) })
        .map((n) => ({ list: new Array<number>(n).fill(0) })),
    },
    { weight: 1, arbitrary: wrongValue },
  );
}

const eventIdArb = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/) },
  { weight: 1, arbitrary: text(70) },
);

const ipArb = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV4Extended(),
  fc.constantFrom(
    '::1',
    '127.0.0.1',
    '0.0.0.0',
    '::ffff:1.2.3.4',
    'fe80::1%lo',
    '999.1.1.1',
    '1.2.3',
    'unknown',
  ),
  text(100),
);

/** A printable header value (fetch refuses control characters). */
const headerText = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'grapheme-ascii', maxLength }),
    fc.constantFrom('', 'x'.repeat(maxLength), 'Mozilla/5.0 (X11; Linux x86_64)'),
  );

/** Random but legal request headers a visitor's browser or a bot might send. */
const junkHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'user-agent': headerText(3000),
    'x-forwarded-for': fc.oneof(fc.ipV4(), fc.ipV6(), headerText(100)),
    'accept-language': fc.oneof(fc.constantFrom('es-MX,es;q=0.9', 'pt-BR', '*'), headerText(100)),
    accept: fc.constantFrom('*/*', 'text/html', 'application/json', 'image/*;q=0.1', ''),
    cookie: headerText(200),
  },
  { requiredKeys: [] },
);

/** Encodes a path segment; a lone surrogate becomes the bytes of an invalid UTF-8 sequence. */
function encodeSegment(segment: string): string {
  let out = '';
  for (const char of segment) {
    const code = char.charCodeAt(0);
    out += char.length === 1 && code >= 0xd800 && code <= 0xdfff ? '%ED%A0%80' : encodeURIComponent(char);
  }
  return out;
}

const BROKEN_SEGMENTS = [
  '%',
  '%z',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%FF',
  '%00',
  '%2F',
  '..%2F..%2Fetc%2Fpasswd',
  ';',
  '@',
  ':',
  '~',
  '%25',
  '%u0041',
  '+',
];

const pathSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: text(60).map(encodeSegment) },
  { weight: 2, arbitrary: fc.constantFrom(...BROKEN_SEGMENTS) },
  { weight: 1, arbitrary: fc.constantFrom(199, 200, 201, 2000, 6000).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.webSegment() },
);

const junkQuery: fc.Arbitrary<string> = fc.oneof(
  fc.webQueryParameters().map((q) => `?${q}`),
  fc
    .array(fc.tuple(text(50), text(50)), { maxLength: 6 })
    .map(
      (pairs) => `?${new URLSearchParams(pairs.map(([k, v]) => [wellFormed(k), wellFormed(v)])).toString()}`,
    ),
  fc.constantFrom(
    '?',
    '?&',
    '?=',
    '?%',
    '?a=%zz',
    '?a=%E0%A4%A',
    '?a[b]=1',
    '?__proto__[x]=1',
    '?constructor[prototype][x]=1',
    '?a=1&a=2',
    '?%00=%00',
    '?ip=1.2.3.4',
    `?x=${'a'.repeat(4000)}`,
  ),
);

// ---------------------------------------------------------------------------------------------------
// Bodies

type Shape = (f: Fixture) => fc.Arbitrary<Record<string, unknown>>;

/** A shape's value may carry its path parameters here (a symbol: JSON.stringify and Object.keys skip it). */
const PATH_PARAMS = Symbol('path params');

function paramsOf(value: Record<PropertyKey, unknown>): Record<string, string> | undefined {
  return value[PATH_PARAMS] as Record<string, string> | undefined;
}

interface BodyRouteOptions {
  limit: number;
  /** Page-close beacons: text/plain bodies are read as JSON. */
  beacon?: boolean;
  /** Its own JSON media types, besides application/json (CSP reports). */
  types?: readonly string[];
  shape: Shape;
  params?: (f: Fixture) => fc.Arbitrary<Record<string, string>>;
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON'];

const WRONG_TYPES = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'text/html',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/json; charset=iso-8859-1',
  'application/json;',
  'application/json ; ;=',
  'application/jsonx',
  'application/vnd.api+json',
  'json',
  '*/*',
  '',
];

/** A flat form body from an object, as an HTML form would post it. */
function formBody(value: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [key, item] of Object.entries(value)) {
    form.append(wellFormed(key), wellFormed(typeof item === 'string' ? item : (serialize(item) ?? '')));
  }
  return form.toString();
}

/** Well-formed and malformed requests for a route with a JSON body. */
function bodyGenerators(f: Fixture, options: BodyRouteOptions): Generators {
  const { limit } = options;
  const shape = options.shape(f);
  const params = options.params ? options.params(f) : fc.constant(undefined);
  /** A request with this body; its path parameters come from the shape's value when it has them. */
  const json = (
    body: string | Bytes,
    what: string,
    contentType = 'application/json',
    from?: Record<PropertyKey, unknown>,
  ) => {
    const own = from ? paramsOf(from) : undefined;
    return (own ? fc.constant(own) : params).map((p): Draft => ({
      what,
      ...(p ? { params: p } : {}),
      headers: contentType === '' ? {} : { 'content-type': contentType },
      body,
    }));
  };
  const okTypes = [
    ...JSON_TYPES,
    ...(options.beacon ? ['text/plain;charset=UTF-8'] : []),
    ...(options.types ?? []),
  ];

  const wellFormed = fc
    .record({ p: params, value: shape, contentType: fc.constantFrom(...okTypes), headers: junkHeaders })
    .map(({ p, value, contentType, headers }): Draft => {
      const own = paramsOf(value) ?? p;
      return {
        what: 'contract-shaped body',
        ...(own ? { params: own } : {}),
        headers: { ...headers, 'content-type': contentType },
        body: serialize(value) ?? '{}',
      };
    });

  const bytes = (text: string): Bytes => new TextEncoder().encode(text);
  const malformed = fc.oneof(
    fc.jsonValue().chain((v) => json(serialize(v) ?? 'null', 'fc.jsonValue()')),
    fc
      .anything({
        withBoxedValues: true,
        withMap: true,
        withSet: true,
        withNullPrototype: true,
        withSparseArray: true,
        withTypedArray: true,
        withDate: true,
        withBigInt: true,
        withObjectString: true,
      })
      .chain((v) => json(serializeAnything(v), 'fc.anything() serialised')),
    fc.tuple(shape, fc.double({ min: 0, max: 1, noNaN: true })).chain(([v, cut]) => {
      const full = serialize(v) ?? '{}';
      return json(
        full.slice(0, Math.min(full.length - 1, Math.floor(full.length * cut))),
        'truncated JSON',
        undefined,
        v,
      );
    }),
    fc.tuple(shape, fc.nat(), wrongValue).chain(([v, i, junk]) => {
      const keys = [...Object.keys(v), 'sneaky', '__proto__', 'constructor'];
      const key = keys[i % keys.length] ?? 'sneaky';
      return json(serialize({ ...v, [key]: junk }) ?? '{}', `wrong value for ${key}`, undefined, v);
    }),
    fc
      .tuple(shape, fc.constantFrom(...WRONG_TYPES))
      .chain(([v, type]) =>
        json(
          type.includes('form') ? formBody(v) : (serialize(v) ?? '{}'),
          `content type ${JSON.stringify(type)}`,
          type,
          v,
        ),
      ),
    fc
      .tuple(shape, fc.string({ unit: 'grapheme-ascii', maxLength: 40 }))
      .chain(([v, type]) => json(serialize(v) ?? '{}', 'random content type', type, v)),
    shape.chain((v) => json(bytes(serialize(v) ?? '{}'), 'no content type', '', v)),
    fc.constantFrom('', ' ', '\n', '\uFEFF').chain((t) => json(t, 'empty body')),
    params.map((p): Draft => ({ what: 'no body at all', ...(p ? { params: p } : {}) })),
    fc
      .constantFrom('null', '0', '"text"', 'true', '[]', '[{}]', '{}', '{"token":null}')
      .chain((t) => json(t, 'bare value')),
    fc.uint8Array({ maxLength: 300 }).chain((b) => json(new Uint8Array(b), 'random bytes')),
    shape.chain((v) => {
      const text = serialize(v) ?? '{}';
      return fc
        .constantFrom(
          { what: 'BOM before JSON', body: `\uFEFF${text}` },
          { what: 'prototype key', body: text.replace(/^\{/, '{"__proto__":{"isAdmin":true},') },
          {
            what: 'constructor.prototype key',
            body: text.replace(/^\{/, '{"constructor":{"prototype":{"x":1}},'),
          },
          { what: 'duplicate keys', body: text.replace(/^\{/, '{"token":1,"type":[],') },
          { what: 'trailing garbage', body: `${text}}}` },
          { what: 'two documents', body: `${text}\n${text}` },
          { what: 'single quotes', body: text.replaceAll('"', "'") },
          { what: 'comment', body: `/* hi */${text}` },
        )
        .chain(({ what, body }) => json(body, what, undefined, v));
    }),
    fc
      .tuple(
        fc.double({ min: 0.5, max: 0.97, noNaN: true }),
        fc.constantFrom('0', '"x"', '{}', '[]', 'null', '{"token":"t"}', '1e999'),
      )
      .chain(([fill, item]) => {
        const n = Math.floor((limit * fill) / (item.length + 1));
        return json(`[${new Array<string>(n).fill(item).join(',')}]`, `array of ${n} under the body limit`);
      }),
    fc.tuple(shape, fc.double({ min: 0.5, max: 0.95, noNaN: true })).chain(([v, fill]) => {
      const base = serialize(v) ?? '{}';
      const n = Math.max(1, Math.floor((limit * fill - base.length) / 2));
      return json(
        serialize({ ...v, details: { list: new Array<number>(n).fill(0) } }) ?? '{}',
        `object with an array of ${n} under the body limit`,
        undefined,
        v,
      );
    }),
    fc
      .double({ min: 1.01, max: 1.3, noNaN: true })
      .chain((over) => json(`{"pad":"${'x'.repeat(Math.floor(limit * over))}"}`, 'over the body limit')),
    fc
      .integer({ min: 10, max: Math.floor(limit / 2) - 10 })
      .chain((depth) => json(deepArray(depth).text, `array nested ${depth} deep`)),
    fc
      .tuple(shape, fc.integer({ min: 10, max: Math.floor(limit / 2) - 400 }))
      .chain(([v, depth]) =>
        json(
          serialize({ ...v, details: { deep: deepArray(depth) } }) ?? '{}',
          `details nested ${depth} deep`,
          undefined,
          v,
        ),
      ),
    shape.chain((v) => {
      const text = serialize(v) ?? '{}';
      const body = new Uint8Array([
        ...bytes(text.slice(0, -1)),
        ...bytes(',"bad":"'),
        0xc0,
        0x80,
        0xff,
        0xfe,
        ...bytes('"}'),
      ]);
      return json(body, 'invalid UTF-8 inside JSON', undefined, v);
    }),
  );
  return { wellFormed, malformed };
}

/** Query-only routes: the well-formed query, and junk. */
function queryGenerators(wellFormedQuery: fc.Arbitrary<string>): Generators {
  return {
    wellFormed: fc
      .record({ query: wellFormedQuery, headers: junkHeaders })
      .map(({ query, headers }): Draft => ({ what: 'well-formed query', query, headers })),
    malformed: fc
      .record({ query: junkQuery, headers: junkHeaders })
      .map(({ query, headers }): Draft => ({ what: 'junk query', query, headers })),
  };
}

// ---------------------------------------------------------------------------------------------------
// Contract-shaped bodies

const real = <T>(values: readonly T[], other: fc.Arbitrary<T>, weight = 4): fc.Arbitrary<T> =>
  values.length === 0
    ? other
    : fc.oneof({ weight, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: other });

const tokenArb = (f: Fixture): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...f.leadTokens) },
    { weight: 1, arbitrary: fc.constantFrom(...f.previewTokens) },
    { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{32}$/) },
    { weight: 2, arbitrary: text(200) },
  );

const sessionIdArb = (f: Fixture): fc.Arbitrary<string> =>
  real(f.sessionIds, fc.oneof(fc.uuid(), fc.stringMatching(/^[0-9a-f]{32}$/), text(64)), 5);

const domainArb = (f: Fixture): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        f.url,
        'http://localhost:3000',
        'localhost',
        '127.0.0.1',
        `https://${f.customHost}`,
        f.customHost,
      ),
    },
    { weight: 1, arbitrary: fc.webUrl() },
    { weight: 1, arbitrary: fc.domain() },
    { weight: 1, arbitrary: text(300) },
  );

const slugArb = (f: Fixture): fc.Arbitrary<string | null | undefined> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...f.slugs) },
    { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
    { weight: 1, arbitrary: text(100) },
  );

const short = text(200);
const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });

/**
 * Device details of a session: a browser's own (valid throughout), a fuzzed one (fields of the
 * wrong type, extreme numbers), or junk.
 */
function sessionDetails(limit: number): fc.Arbitrary<unknown> {
  const details = (fuzz: boolean) => {
    const f = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<unknown> => (fuzz ? field(a) : a);
    const n = (a: fc.Arbitrary<number>): fc.Arbitrary<unknown> => (fuzz ? num(a) : a);
    const s = fuzz ? short : fc.string({ maxLength: 40 });
    const partial = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) =>
      fc.record(model, { requiredKeys: [] });
    return partial({
      userAgent: f(fuzz ? text(2000) : fc.string({ maxLength: 300 })),
      videoStatus: f(s),
      browser: f(partial({ name: s, version: s, engine: s })),
      os: f(partial({ name: s, version: s, architecture: s })),
      display: f(
        partial({
          screenWidth: n(finite),
          screenHeight: n(finite),
          viewportWidth: n(finite),
          viewportHeight: n(finite),
          zoom: n(finite),
        }),
      ),
      capabilities: f(
        partial({
          touch: f(fc.boolean()),
          cookiesEnabled: fc.boolean(),
          localStorageAvailable: fc.boolean(),
        }),
      ),
      preferences: f(
        partial({
          mainLanguage: s,
          languages: fc.array(s, { maxLength: fuzz ? 32 : 5 }),
          dateTimeFormat: s,
        }),
      ),
      network: f(
        partial({
          connectionType: s,
          effectiveType: fc.constantFrom('4g', '3g', 'slow-2g'),
          downlink: n(finite),
          rtt: n(finite),
          saveData: fc.boolean(),
        }),
      ),
      referrer: f(fuzz ? fc.oneof(fc.webUrl(), text(2000)) : fc.webUrl()),
      sessionCount: n(fc.integer({ min: 0, max: 1_000_000 })),
      fingerprint: f(s),
      privacySensitiveData: f(
        partial({
          deviceId: s,
          location: fuzz
            ? junkRecord(limit)
            : fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 })),
        }),
      ),
    });
  };
  return fc.oneof(
    { weight: 3, arbitrary: details(false) },
    { weight: 3, arbitrary: details(true) },
    { weight: 1, arbitrary: junkRecord(limit) },
  );
}

/** A lead's token with one of its own sessions, mostly; sometimes any token with any session. */
const tokenAndSession = (f: Fixture): fc.Arbitrary<{ token: string; id: string }> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...f.sessions) },
    { weight: 1, arbitrary: fc.record({ token: tokenArb(f), id: sessionIdArb(f) }) },
  );

/** A session id as a path segment: mostly one of the lead's, sometimes an odd one. */
const sessionSegment = (id: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(encodeSegment(id)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '%00',
        '%E0%A4%A',
        '%2F',
        `${id}%00`,
        'a'.repeat(65),
        'a'.repeat(201),
        'a'.repeat(3000),
      ),
    },
  );

const TRACK_LIMIT = 64 * KB;

const SHAPES = {
  site: (f: Fixture) =>
    fc.record(
      {
        domain: field(domainArb(f)),
        slug: field(slugArb(f)),
        token: field(fc.oneof(tokenArb(f), fc.constantFrom(...f.previewTokens))),
        type: field(enumOf(SiteType.options)),
        origin: field(text(100)),
        ip: field(ipArb),
        userAgent: field(text(2000)),
      },
      { requiredKeys: ['domain', 'token', 'type'] },
    ),
  preview: (f: Fixture) =>
    fc.record(
      {
        domain: field(domainArb(f)),
        token: field(
          fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(...f.previewTokens) },
            { weight: 2, arbitrary: tokenArb(f) },
          ),
        ),
      },
      { requiredKeys: ['domain', 'token'] },
    ),
  landing: (f: Fixture) =>
    fc.record(
      {
        userDomain: field(domainArb(f)),
        userSlug: field(slugArb(f)),
        userToken: field(tokenArb(f)),
        type: field(enumOf(SiteType.options)),
        origin: field(text(100)),
        ip: field(ipArb),
        userAgent: field(text(2000)),
        location: junkRecord(8 * KB),
      },
      { requiredKeys: ['userDomain', 'userToken', 'type'] },
    ),
  sessionStart: (f: Fixture) =>
    fc.record(
      {
        token: field(tokenArb(f)),
        eventId: field(eventIdArb),
        start: clientTime,
        startReason: field(enumOf(StartReason.options)),
        details: sessionDetails(TRACK_LIMIT),
      },
      { requiredKeys: ['token'] },
    ),
  sessionEnd: (f: Fixture) =>
    tokenAndSession(f).chain(({ token, id }) =>
      fc
        .record({
          sessionId: sessionSegment(id),
          body: fc.record(
            {
              token: field(fc.constant(token)),
              end: clientTime,
              endReason: field(enumOf(EndReason.options)),
              details: sessionDetails(TRACK_LIMIT),
            },
            { requiredKeys: ['token'] },
          ),
        })
        .map(({ sessionId, body }) => ({ ...body, [PATH_PARAMS]: { sessionId } })),
    ),
  action: (f: Fixture) =>
    tokenAndSession(f).chain(({ token, id }) =>
      fc.record(
        {
          token: field(fc.constant(token)),
          eventId: field(eventIdArb),
          idTrackingPageSession: field(fc.constant(id)),
          action: field(fc.oneof(fc.constantFrom('CLICK_BUTTON', 'PLAY', 'SCROLL_50'), text(100))),
          timestamp: clientTime,
          details: junkRecord(TRACK_LIMIT),
        },
        { requiredKeys: ['token', 'idTrackingPageSession', 'action', 'timestamp'] },
      ),
    ),
  video: (f: Fixture) =>
    tokenAndSession(f).chain(({ token, id }) =>
      fc.record(
        {
          token: field(fc.constant(token)),
          eventId: field(eventIdArb),
          idTrackingPageSession: field(fc.constant(id)),
          startViewTime: clientTime,
          endViewTime: clientTime,
          startTimeVideo: num(fc.double({ min: 0, max: 86_400, noNaN: true })),
          endTimeVideo: num(fc.double({ min: 0, max: 86_400, noNaN: true })),
          details: fc.oneof(
            {
              weight: 4,
              arbitrary: fc.record(
                {
                  videoDuration: num(fc.double({ min: 0, max: 86_400, noNaN: true })),
                  reproductionTime: num(fc.double({ min: 0, max: 86_400_000, noNaN: true })),
                  state: field(fc.oneof(enumOf(VideoState.options), text(40))),
                  videoProgressUpdate: field(
                    fc.record({ seconds: num(finite), percent: num(finite) }, { requiredKeys: [] }),
                  ),
                },
                { requiredKeys: [] },
              ),
            },
            { weight: 1, arbitrary: junkRecord(TRACK_LIMIT) },
          ),
        },
        {
          requiredKeys: [
            'token',
            'idTrackingPageSession',
            'startViewTime',
            'endViewTime',
            'startTimeVideo',
            'endTimeVideo',
          ],
        },
      ),
    ),
  tokenOnly: (f: Fixture) =>
    fc.record(
      { token: field(tokenArb(f)), idPage: field(real(f.pageIds, text(64), 3)) },
      { requiredKeys: ['token'] },
    ),
  leadIp: (f: Fixture) =>
    fc.record({ token: field(tokenArb(f)), ip: field(ipArb) }, { requiredKeys: ['token', 'ip'] }),
  fomo: (f: Fixture) =>
    fc.record(
      {
        idFunnel: field(real(f.funnelIds, fc.oneof(fc.uuid(), text(64)))),
        location: junkRecord(8 * KB),
        site: field(enumOf(FomoSite.options)),
      },
      { requiredKeys: ['idFunnel', 'site'] },
    ),
  pixel: (f: Fixture) =>
    fc.record(
      {
        idFunnel: field(real(f.funnelIds, fc.oneof(fc.uuid(), text(64)))),
        token: field(tokenArb(f)),
        eventData: field(
          fc.record(
            {
              eventName: field(fc.oneof(fc.constantFrom('Lead', 'PageView', 'Purchase'), text(40))),
              eventId: field(eventIdArb),
              ip: field(ipArb),
              agent: field(text(2000)),
              eventSource: field(fc.oneof(fc.webUrl(), text(2048))),
              eventTime: clientTime,
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: ['idFunnel', 'eventData'] },
    ),
  cspReport: () =>
    fc.record({
      'csp-report': fc.record(
        {
          'effective-directive': field(fc.oneof(fc.constantFrom('script-src-elem', 'frame-src'), text(120))),
          'violated-directive': field(text(120)),
          'blocked-uri': field(fc.oneof(fc.webUrl(), fc.constantFrom('inline', 'eval'), text(5000))),
          'document-uri': field(fc.webUrl()),
        },
        { requiredKeys: [] },
      ),
    }),
  firstRun: () =>
    fc.record(
      {
        name: field(text(120)),
        email: field(fc.emailAddress()),
        password: field(text(200)),
        accountName: field(text(120)),
        accountSlug: field(fc.stringMatching(/^[a-z0-9][a-z0-9-]{2,30}$/)),
        language: field(enumOf(['es', 'pt', 'en'])),
      },
      { requiredKeys: ['name', 'email', 'password', 'accountName', 'accountSlug'] },
    ),
  signIn: () =>
    fc.record(
      { email: field(fc.emailAddress()), password: field(text(200)) },
      { requiredKeys: ['email', 'password'] },
    ),
  switchAccount: () => fc.record({ accountId: field(fc.uuid()) }, { requiredKeys: ['accountId'] }),
  profile: () =>
    fc.record(
      { name: field(text(120)), language: field(fc.oneof(enumOf(['es', 'pt', 'en']), fc.constant(null))) },
      { requiredKeys: [] },
    ),
  passwordChange: () =>
    fc.record(
      { currentPassword: field(text(200)), newPassword: field(text(200)) },
      { requiredKeys: ['currentPassword', 'newPassword'] },
    ),
  newUser: () =>
    fc.record(
      { name: field(text(120)), email: field(fc.emailAddress()), password: field(text(200)) },
      { requiredKeys: ['name', 'email', 'password'] },
    ),
} satisfies Record<string, Shape>;

// ---------------------------------------------------------------------------------------------------
// The generator table: every public route

const bodyRoute = (
  method: 'POST' | 'PUT',
  path: string,
  options: BodyRouteOptions,
  extra: Partial<Pick<RouteSpec, 'optional' | 'envelope'>> = {},
): RouteSpec => ({
  method,
  path,
  twin: true,
  envelope: extra.envelope ?? true,
  ...(extra.optional ? { optional: true } : {}),
  generators: (f) => bodyGenerators(f, options),
});

/** A token-shaped invitation token: no such invitation exists, so accepting one is a 404. */
const invitationToken = fc.stringMatching(/^[A-Za-z0-9_-]{32}$/);

/**
 * The Studio's writes must carry its own Origin (decision 21): well-formed requests do, so they reach
 * the handlers; malformed ones carry it, another site's, or none.
 */
function withOrigin(f: Fixture, g: Generators): Generators {
  return {
    wellFormed: g.wellFormed.map((d): Draft => ({ ...d, headers: { ...d.headers, origin: f.url } })),
    malformed: fc
      .tuple(g.malformed, fc.constantFrom(f.url, 'https://evil.example', 'null', undefined))
      .map(([d, origin]): Draft => (origin === undefined ? d : { ...d, headers: { ...d.headers, origin } })),
  };
}

/** A route of the Studio's sign-in with a JSON body. */
const authBody = (
  method: 'POST' | 'PUT' | 'PATCH',
  path: string,
  shape: Shape,
  params?: (f: Fixture) => fc.Arbitrary<Record<string, string>>,
): RouteSpec => ({
  method,
  path,
  twin: false,
  envelope: false,
  generators: (f) =>
    withOrigin(f, bodyGenerators(f, { limit: 16 * KB, shape, ...(params ? { params } : {}) })),
});

/** A route of the Studio's sign-in that reads nothing but the cookie. */
const authQuery = (path: string): RouteSpec => ({
  method: 'GET',
  path,
  twin: false,
  envelope: false,
  generators: () => queryGenerators(fc.constant('')),
});

const visitorPage: RouteSpec = {
  method: 'GET',
  path: '/{slug}/{token}',
  twin: false,
  envelope: false,
  hidden: true,
  generators: (f) => {
    const visitorQuery = fc
      .record(
        {
          page: fc.oneof(fc.constantFrom(...f.pageIds), text(64)),
          open: text(20),
          previewToken: fc.oneof(fc.constantFrom(...f.previewTokens), text(200)),
          mode: fc.oneof(fc.constantFrom('preview', 'edit'), text(20)),
        },
        { requiredKeys: [] },
      )
      .map((q) => {
        const entries = Object.entries(q).map(([k, v]) => [k, wellFormed(v)]);
        return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
      });
    return {
      wellFormed: fc
        .record({
          slug: fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...f.slugs) },
            { weight: 1, arbitrary: text(60) },
          ),
          token: fc.oneof(
            { weight: 5, arbitrary: fc.constantFrom(...f.leadTokens) },
            { weight: 1, arbitrary: fc.constant('preview') },
            { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{32}$/) },
            { weight: 1, arbitrary: text(200) },
          ),
          query: visitorQuery,
          headers: junkHeaders,
        })
        .map(({ slug, token, query, headers }): Draft => ({
          what: 'a lead link',
          params: { slug: encodeSegment(slug), token: encodeSegment(token) },
          query,
          headers,
        })),
      malformed: fc
        .record({
          segments: fc.array(pathSegment, { minLength: 0, maxLength: 6 }),
          query: fc.oneof(junkQuery, visitorQuery),
          trailingSlash: fc.boolean(),
          headers: junkHeaders,
        })
        .map(({ segments, query, trailingSlash, headers }): Draft => ({
          what: 'a junk path',
          rawPath: `/${segments.join('/')}${trailingSlash ? '/' : ''}`,
          query,
          headers,
        })),
    };
  },
};

const ROUTES: RouteSpec[] = [
  bodyRoute('POST', '/api/funnel/site', { limit: 8 * KB, shape: SHAPES.site }),
  bodyRoute('POST', '/api/funnel/site/preview', { limit: 8 * KB, shape: SHAPES.preview }),
  bodyRoute('POST', '/api/funnel/landing', { limit: 8 * KB, shape: SHAPES.landing }),
  bodyRoute('POST', '/api/funnel/track/page', {
    limit: TRACK_LIMIT,
    beacon: true,
    shape: SHAPES.sessionStart,
  }),
  bodyRoute('PUT', '/api/funnel/track/page/{sessionId}', {
    limit: TRACK_LIMIT,
    beacon: true,
    shape: SHAPES.sessionEnd,
    // For bodies not built from the shape: any session, as a segment.
    params: (f) =>
      sessionIdArb(f)
        .chain(sessionSegment)
        .map((sessionId) => ({ sessionId })),
  }),
  bodyRoute('POST', '/api/funnel/track/action', { limit: TRACK_LIMIT, beacon: true, shape: SHAPES.action }),
  bodyRoute('POST', '/api/funnel/track/video', { limit: TRACK_LIMIT, beacon: true, shape: SHAPES.video }),
  bodyRoute('PUT', '/api/funnel/site/complete', { limit: 4 * KB, shape: SHAPES.tokenOnly }),
  bodyRoute('POST', '/api/funnel/track/event/offert', { limit: 4 * KB, shape: SHAPES.tokenOnly }),
  bodyRoute('POST', '/api/lead/internal/conversion/prelaunch', { limit: 4 * KB, shape: SHAPES.tokenOnly }),
  bodyRoute('POST', '/api/funnel/lead/ip', { limit: 4 * KB, shape: SHAPES.leadIp }),
  bodyRoute('POST', '/api/funnel/fomo', { limit: 8 * KB, shape: SHAPES.fomo }),
  bodyRoute(
    'POST',
    '/api/funnel/track/pixel',
    { limit: 16 * KB, shape: SHAPES.pixel },
    { optional: true, envelope: false },
  ),
  {
    ...bodyRoute(
      'POST',
      '/api/csp-report',
      {
        limit: 16 * KB,
        types: ['application/csp-report', 'application/reports+json'],
        shape: SHAPES.cspReport,
      },
      { envelope: false },
    ),
    twin: false,
  },
  {
    method: 'GET',
    path: '/api/geo',
    twin: true,
    envelope: false,
    generators: () => queryGenerators(fc.constant('')),
  },
  {
    method: 'GET',
    path: '/api/health',
    twin: false,
    envelope: false,
    generators: () => queryGenerators(fc.constant('')),
  },
  {
    method: 'GET',
    path: '/internal/tls/ask',
    twin: false,
    envelope: false,
    plainAnswers: true,
    generators: (f) =>
      queryGenerators(
        fc
          .oneof(
            {
              weight: 2,
              arbitrary: fc.constantFrom(f.customHost, f.customHost.toUpperCase(), 'localhost', '127.0.0.1'),
            },
            { weight: 3, arbitrary: fc.domain() },
            { weight: 2, arbitrary: text(260) },
          )
          .map((domain) => `?${new URLSearchParams({ domain: wellFormed(domain) }).toString()}`),
      ),
  },
  visitorPage,
  // The Studio's sign-in (decision 21): no credential needed to call them, so public.
  authQuery('/api/auth/setup'),
  authBody('POST', '/api/auth/setup', SHAPES.firstRun),
  authBody('POST', '/api/auth/sign-in', SHAPES.signIn),
  authBody('POST', '/api/auth/sign-out', () => fc.constant({})),
  authQuery('/api/auth/session'),
  authBody('PUT', '/api/auth/session/account', SHAPES.switchAccount),
  authBody('PATCH', '/api/auth/profile', SHAPES.profile),
  authBody('PUT', '/api/auth/password', SHAPES.passwordChange),
  {
    method: 'GET',
    path: '/api/auth/invitations/{token}',
    twin: false,
    envelope: false,
    generators: (f) => {
      const query = queryGenerators(fc.constant(''));
      return withOrigin(f, {
        wellFormed: fc
          .tuple(query.wellFormed, invitationToken)
          .map(([d, token]): Draft => ({ ...d, params: { token } })),
        malformed: fc
          .tuple(query.malformed, fc.oneof(invitationToken, text(300).map(encodeSegment)))
          .map(([d, token]): Draft => ({ ...d, params: { token: token === '' ? 'x' : token } })),
      });
    },
  },
  authBody('POST', '/api/auth/invitations/{token}/accept', SHAPES.newUser, () =>
    invitationToken.map((token) => ({ token })),
  ),
];

const CASES: RouteCase[] = ROUTES.flatMap((spec) =>
  (spec.twin ? (['/api', ''] as const) : ([spec.path.startsWith('/api/') ? '/api' : ''] as const)).map(
    (prefix) => ({
      name: `${spec.method} ${prefix === '' ? spec.path.replace(/^\/api/, '') : spec.path}`,
      spec,
      prefix,
    }),
  ),
).map((c, index): RouteCase => ({ ...c, seed: SEED + index }));

// ---------------------------------------------------------------------------------------------------
// Sending and judging

interface Request {
  kind: Kind;
  what: string;
  method: Method;
  path: string;
  headers: Record<string, string>;
  body?: string | Bytes;
}

/** A failing request as fast-check prints it: short enough to read, whole enough to replay. */
function describeRequest(r: Request): string {
  const body =
    r.body === undefined
      ? '(no body)'
      : typeof r.body === 'string'
        ? JSON.stringify(
            r.body.length > 600 ? `${r.body.slice(0, 600)}… (${r.body.length} characters)` : r.body,
          )
        : `bytes [${[...r.body.slice(0, 80)].join(',')}${r.body.length > 80 ? ',…' : ''}] (${r.body.length} bytes)`;
  return `${r.kind} (${r.what}): ${r.method} ${r.path.length > 300 ? `${r.path.slice(0, 300)}…` : r.path} headers ${JSON.stringify(r.headers)} body ${body}`;
}

function toRequest(routeCase: RouteCase, kind: Kind, draft: Draft): Request {
  const { spec, prefix } = routeCase;
  let path =
    draft.rawPath ?? spec.path.replace(/\{(\w+)\}/g, (_m, name: string) => draft.params?.[name] ?? 'missing');
  if (prefix === '' && draft.rawPath === undefined) path = path.replace(/^\/api/, '');
  const request: Request = {
    kind,
    what: draft.what,
    method: spec.method,
    path: `${path}${draft.query ?? ''}`,
    headers: draft.headers ?? {},
    ...(draft.body !== undefined ? { body: draft.body } : {}),
  };
  Object.defineProperty(request, fc.toStringMethod, {
    value: () => describeRequest(request),
    enumerable: false,
  });
  return request;
}

const STACK_SIGNS: [RegExp, string][] = [
  [/\n\s+at\s/, 'a stack frame'],
  [/\\n\s+at\s/, 'an escaped stack frame'],
  [/node_modules/, "'node_modules'"],
  [/\/work\//, "'/work/'"],
  [/(^|[\s"'>:])(?:[A-Z][A-Za-z]*)?Error: /m, "an 'Error:' dump"],
];

interface Answer {
  /** null when no answer came. */
  status: number | null;
  contentType: string;
  body: string;
  /** Why there was no answer. */
  failure?: string;
}

async function send(base: string, request: Request): Promise<Answer> {
  try {
    const response = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      body: await response.text(),
    };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return {
      status: null,
      contentType: '',
      body: '',
      failure: `${error instanceof Error ? error.message : String(error)}${cause}`,
    };
  }
}

/** What is wrong with an answer, as a user of the API would see it. */
function judge(spec: RouteSpec, answer: Answer): { what: string; detail: string }[] {
  if (answer.status === null) return [{ what: 'no answer', detail: answer.failure ?? '' }];
  const { status, body, contentType } = answer;
  const detail = `${status} ${contentType} ${body.length > 400 ? `${body.slice(0, 400)}…` : body}`;
  const problems: { what: string; detail: string }[] = [];
  if (status >= 500) problems.push({ what: `a ${status}`, detail });
  for (const [sign, name] of STACK_SIGNS)
    if (sign.test(body)) problems.push({ what: `${name} in the answer`, detail });
  const isJson = contentType.includes('json');
  if (spec.path.startsWith('/api/') && body !== '' && !isJson) {
    problems.push({ what: 'an API answer that is not JSON', detail });
  }
  if (!isJson) return problems;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [...problems, { what: 'JSON that does not parse', detail }];
  }
  if (status >= 400 && !(spec.plainAnswers && status === 404)) {
    const error = parsed as { message?: unknown; codeResponse?: unknown } | null;
    if (typeof error?.message !== 'string') problems.push({ what: 'an error without a message', detail });
    if (spec.envelope && error?.codeResponse !== undefined && error.codeResponse !== status) {
      problems.push({ what: 'a codeResponse that differs from the status', detail });
    }
  }
  return problems;
}

/** How big a request is, to keep the smallest example of each problem. */
function sizeOf(request: Request): number {
  return request.path.length + (request.body?.length ?? 0);
}

interface Tally {
  total: number;
  wellFormed: number;
  malformed: number;
  statuses: Map<number, number>;
}

describe.each(TEST_DIALECTS)('public routes under generated input on %s', (dialect) => {
  let server: TestServer;
  const fixture: Fixture = {
    url: '',
    leadTokens: [],
    previewTokens: [],
    slugs: ['demo', 'enigma'],
    funnelIds: [],
    pageIds: [],
    sessionIds: [],
    sessions: [],
    customHost: 'shop.fuzz-demo.example',
  };
  const tallies = new Map<string, Tally>();
  const started = Date.now();

  beforeAll(async () => {
    server = await startTestServer(dialect, { RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' });
    const demo = await seedDemo(server.services, server.url);
    const accounts = [demo, ...demo.otherAccounts];
    fixture.url = server.url;
    fixture.leadTokens = accounts.flatMap((a) => a.funnels.flatMap((fn) => fn.leads.map((l) => l.token)));
    fixture.previewTokens = accounts.flatMap((a) =>
      a.funnels.map((fn) => new URL(fn.previewUrl).searchParams.get('previewToken') ?? ''),
    );
    fixture.funnelIds = accounts.flatMap((a) => a.funnels.map((fn) => fn.id));
    fixture.pageIds = accounts.flatMap((a) => a.funnels.flatMap((fn) => fn.pages.map((p) => p.id)));

    // A custom domain, and social proof switched on, so that well-formed requests reach those paths too.
    const domain = await api(server, 'POST', '/api/owner/domains', {
      key: demo.apiKey,
      body: { host: fixture.customHost },
    });
    expect(domain.status, domain.text).toBe(201);
    await markDomainVerified(server.database.db, fixture.customHost);
    const fomo = await api(server, 'PATCH', `/api/owner/funnels/${fixture.funnelIds[0] ?? ''}`, {
      key: demo.apiKey,
      body: {
        isFomoOn: true,
        fomo: {
          lpi: { fomoApplied: true },
          video: { fomoApplied: true },
          offert: { fomoApplied: true },
          source: 'both',
          messages: [{ name: 'Ana', location: 'Monterrey', countryCode: 'MX' }],
        },
      },
    });
    expect(fomo.status, fomo.text).toBe(200);

    for (const token of fixture.leadTokens) {
      for (const startReason of StartReason.options) {
        const opened = await api(server, 'POST', '/api/funnel/track/page', { body: { token, startReason } });
        expect(opened.status, opened.text).toBe(200);
        const id = (opened.body as { data?: { idTrackingPageSession?: string } | null }).data
          ?.idTrackingPageSession;
        if (id) {
          fixture.sessionIds.push(id);
          fixture.sessions.push({ token, id });
        }
      }
    }
  });

  afterAll(async () => {
    await server.close();
  });

  it('covers every public path of the OpenAPI document, and each unprefixed twin, with a generator', async () => {
    const doc = (await (await fetch(`${server.url}/api/docs/json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const publicOps = Object.entries(doc.paths)
      .filter(([path]) => !path.startsWith('/api/owner') && !path.startsWith('/api/docs'))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })));
    const inTable = (op: { method: string; path: string }) =>
      ROUTES.find((r) => r.method === op.method && r.path === op.path);
    expect(
      publicOps.filter((op) => !inTable(op)).map((op) => `${op.method} ${op.path}`),
      'public routes of the OpenAPI document with no generator',
    ).toEqual([]);
    expect(publicOps.length).toBeGreaterThanOrEqual(15);

    // The twins are hidden from the document: ask the server which paths answer without /api.
    const twins: string[] = [];
    // Only paths under /api have a reading without it (/internal/tls/ask is the operator's own).
    for (const op of publicOps.filter((o) => o.path.startsWith('/api/'))) {
      const path = op.path.replace(/^\/api/, '').replace(/\{\w+\}/g, 'x');
      const response = await fetch(`${server.url}${path}`, {
        method: op.method,
        ...(op.method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      const body = await response.text();
      const html = (response.headers.get('content-type') ?? '').includes('text/html');
      if (!html && !(response.status === 404 && body.includes('no route for')))
        twins.push(`${op.method} ${op.path}`);
    }
    const declared = publicOps.filter((op) => inTable(op)?.twin).map((op) => `${op.method} ${op.path}`);
    expect(
      declared.sort(),
      'routes answering without /api, as the server shows and as the table says',
    ).toEqual(twins.sort());
    // Entries the document does not list must be the ones known to be hidden or not wired yet.
    const listed = new Set(publicOps.map((op) => `${op.method} ${op.path}`));
    expect(
      ROUTES.filter((r) => !listed.has(`${r.method} ${r.path}`) && !r.hidden && !r.optional).map(
        (r) => `${r.method} ${r.path}`,
      ),
      'generator table entries the server does not serve',
    ).toEqual([]);
  });

  it.concurrent.for(CASES)(
    `$name: ${RUNS} generated requests, half well-formed, half malformed; no 5xx, no stack trace (fast-check seed $seed)`,
    { timeout: 300_000 },
    async (routeCase, { expect }) => {
      const tally: Tally = { total: 0, wellFormed: 0, malformed: 0, statuses: new Map() };
      tallies.set(routeCase.name, tally);
      const { wellFormed, malformed } = routeCase.spec.generators(fixture);
      const requests = fc.oneof(
        wellFormed.map((d) => toRequest(routeCase, 'well-formed', d)),
        malformed.map((d) => toRequest(routeCase, 'malformed', d)),
      );
      // Every answer is judged, and every problem kept with its smallest example, so that one bug does
      // not stop the run: the route still gets all its requests, and the report names every bug found.
      const problems = new Map<string, { count: number; example: Request; detail: string }>();

      await fc.assert(
        fc.asyncProperty(requests, async (request) => {
          tally.total += 1;
          if (request.kind === 'well-formed') tally.wellFormed += 1;
          else tally.malformed += 1;
          const answer = await send(server.url, request);
          if (answer.status !== null)
            tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
          for (const problem of judge(routeCase.spec, answer)) {
            const key = `${problem.what} (${request.kind}: ${request.what.replace(/\d+/g, 'N')})`;
            const seen = problems.get(key);
            if (!seen) problems.set(key, { count: 1, example: request, detail: problem.detail });
            else {
              seen.count += 1;
              if (sizeOf(request) < sizeOf(seen.example)) {
                seen.example = request;
                seen.detail = problem.detail;
              }
            }
          }
        }),
        { numRuns: RUNS, seed: routeCase.seed },
      );

      const report = [...problems.entries()].map(
        ([key, p]) => `${p.count}× ${key}\n  e.g. ${describeRequest(p.example)}\n  → ${p.detail}`,
      );
      expect(report, `${routeCase.name}, fast-check seed ${routeCase.seed}`).toEqual([]);
      expect(tally.total).toBeGreaterThanOrEqual(RUNS);
      // Roughly half and half.
      expect(tally.wellFormed).toBeGreaterThan(RUNS * 0.4);
      expect(tally.malformed).toBeGreaterThan(RUNS * 0.4);
    },
  );

  it('sent at least 1,000 requests to every route and logged no unhandled error', () => {
    const lines = CASES.map((c) => {
      const t = tallies.get(c.name);
      const statuses = t
        ? [...t.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`)
        : [];
      return `${c.name}: ${t?.total ?? 0} requests (${t?.wellFormed ?? 0} well-formed, ${t?.malformed ?? 0} malformed) → ${statuses.join(' ')}`;
    });
    console.log(
      `public routes on ${dialect}, fast-check seeds ${SEED}+, ${Math.round((Date.now() - started) / 1000)} s:\n${lines.join('\n')}`,
    );
    for (const c of CASES) expect(tallies.get(c.name)?.total ?? 0, c.name).toBeGreaterThanOrEqual(RUNS);
    // Each distinct error the server logged, named by its type, message and innermost frame of our code.
    const errors = server
      .logs()
      .split('\n')
      .filter((line) => line.includes('"level":50') || line.includes('"level":60'))
      .map((line) => {
        const entry = JSON.parse(line) as {
          msg?: string;
          err?: { type?: string; message?: string; stack?: string };
        };
        const frame = /\n\s+at (.*?apps\/server\/src\/[^\n]*)/.exec(entry.err?.stack ?? '')?.[1] ?? '';
        // Values in messages ("1e-50" is out of range…) vary; the kind of error does not.
        const message = (entry.err?.message ?? '').replace(/-?\d+(\.\d+)?(e[-+]?\d+)?/gi, 'N');
        return `${entry.msg ?? ''}: ${entry.err?.type ?? ''}: ${message} at ${frame.replace(/\(?\/.*?\/apps\//, '(apps/')}`;
      });
    expect([...new Set(errors)], 'errors in the server log').toEqual([]);
  });
});
