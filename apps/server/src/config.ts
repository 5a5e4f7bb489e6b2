import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { DEV_BASE_DOMAINS, OWNER_LIMIT_DEFAULTS, RICH_TEXT_MAX } from '@embudo/contracts';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A whole number from `min` to `max`, `fallback` when unset. */
const count = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ message: `a whole number from ${min} to ${max}` })
    .int({ message: `a whole number from ${min} to ${max}` })
    .min(min, { message: `a whole number from ${min} to ${max}` })
    .max(max, { message: `a whole number from ${min} to ${max}` })
    .default(fallback);

/**
 * What page resolution keeps in memory (parsed funnels and pages, accounts), in estimated bytes: a
 * quarter of the 128 MB old space `npm start` gives the heap, where the rest of the server lives in
 * about 30 MB.
 */
export const DEFAULT_CONTENT_CACHE_BYTES = 32 * 1024 * 1024;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A DNS server as node's resolver takes it: an IP address, `ipv4:port` or `[ipv6]:port`. */
function isDnsServer(value: string): boolean {
  const withPort = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  if (withPort) return isIP(withPort[1] ?? withPort[2] ?? '') !== 0 && Number(withPort[3]) <= 65535;
  return isIP(value) !== 0;
}

/**
 * Every setting, read from the environment once at start-up. A bad value stops the server with a
 * sentence naming the variable, never a stack trace.
 */
/** A comma-separated setting: its items trimmed (and `normalise`d), empty ones dropped, each checked. */
const commaList = (check: (item: string) => boolean, message: string, normalise = (item: string) => item) =>
  z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((item) => normalise(item.trim()))
        .filter((item) => item.length > 0),
    )
    .refine((list) => list.every(check), message);

const EnvSchema = z.object({
  PORT: z.coerce.number({ message: 'must be a number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .min(1)
    .default('sqlite:./data/embudo.db')
    .refine(
      (v) => /^(postgres(ql)?:\/\/|sqlite:|file:|[./\w])/i.test(v),
      'use postgres://… or sqlite:./path/to/file.db',
    ),
  BASE_DOMAINS: commaList(
    (d) => /^[a-z0-9.-]+$/.test(d),
    'a comma-separated list of host names (no scheme, no port)',
    (d) => d.toLowerCase(),
  ),
  PUBLIC_URL: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || /^https?:\/\/[^/]+\/?$/.test(v),
      'an origin such as https://embudo.example.com (no path)',
    ),
  TRUST_PROXY: z
    .string()
    .default('false')
    .refine(
      (v) => /^(true|false|)$/.test(v) || /^[0-9a-fA-F.:/,\s]+$/.test(v),
      'true, false, or a comma-separated list of proxy addresses or CIDR ranges',
    )
    .transform((v): boolean | string => (v === 'true' ? true : v === 'false' || v === '' ? false : v)),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  SEED_DEMO: z.enum(['auto', 'always', 'never'], { message: 'auto, always or never' }).default('auto'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  REDIS_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^rediss?:\/\//.test(v), 'a redis:// or rediss:// URL'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(1200),
  PIXEL_API_URL: z
    .string()
    .default('https://graph.facebook.com/v21.0')
    .refine((v) => /^https?:\/\/\S+$/.test(v), 'an http(s) URL such as https://graph.facebook.com/v21.0'),
  PIXEL_WORKER: z.enum(['on', 'off'], { message: 'on or off' }).default('on'),
  ANALYTICS_ROLLUPS: z.enum(['on', 'off'], { message: 'on or off' }).default('on'),
  GEO_DATABASE: z.enum(['city', 'off'], { message: 'city or off' }).default('city'),
  CSP_MODE: z.enum(['enforce', 'report-only'], { message: 'enforce or report-only' }).default('enforce'),
  BENCH_NOOP_ENDPOINT: z.enum(['on', 'off'], { message: 'on or off' }).default('off'),
  MAX_FUNNELS_PER_ACCOUNT: count(1, 1_000_000, OWNER_LIMIT_DEFAULTS.funnelsPerAccount),
  MAX_PAGES_PER_FUNNEL: count(1, 10_000, OWNER_LIMIT_DEFAULTS.pagesPerFunnel),
  MAX_RICH_TEXT_CHARS: count(1, RICH_TEXT_MAX, OWNER_LIMIT_DEFAULTS.richTextChars),
  MAX_FUNNEL_CONTENT_CHARS: count(1, 100_000_000, OWNER_LIMIT_DEFAULTS.funnelContentChars),
  OWNER_RATE_LIMIT_PER_MINUTE: count(0, 1_000_000, OWNER_LIMIT_DEFAULTS.requestsPerMinute),
  CONTENT_CACHE_BYTES: count(0, 4 * 1024 ** 3, DEFAULT_CONTENT_CACHE_BYTES),
  SESSION_MAX_AGE_DAYS: count(1, 365, 30),
  SESSION_IDLE_DAYS: count(1, 365, 7),
  SIGN_IN_ATTEMPTS: count(0, 1_000_000, 10),
  SIGN_IN_WINDOW_MINUTES: count(1, 24 * 60, 15),
  WORKERS: count(1, 64, 1),
  DOMAIN_TARGET: z
    .string()
    .trim()
    .toLowerCase()
    .default('')
    .refine((v) => v === '' || /^[a-z0-9.:-]+$/.test(v), 'a host name such as domains.embudo.example'),
  DNS_SERVERS: commaList(
    isDnsServer,
    'a comma-separated list of DNS server addresses, each ip or ip:port (e.g. 127.0.0.1:5300)',
  ),
  DOMAIN_CHECK_MINUTES: count(1, 7 * 24 * 60, 60),
  TLS_ASK_ALLOW: commaList(
    (s) => isIP(s) !== 0,
    'a comma-separated list of IP addresses (the TLS proxies that ask)',
  ),
  LEGAL_CONTACT_EMAIL: z
    .string()
    .trim()
    .default('')
    .refine(
      (v) => v === '' || z.email().max(254).safeParse(v).success,
      'an e-mail address such as privacy@example.com',
    ),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** Hosts whose first path segment is an account slug (visitor-behaviour §2.1). */
  baseDomains: string[];
  /** The address links are printed with; default http://localhost:{port}. */
  publicUrl: string;
  /** Whether X-Forwarded-For is believed: false, true (any proxy), or the proxies' addresses. */
  trustProxy: boolean | string;
  logLevel: (typeof LOG_LEVELS)[number];
  seedDemo: 'auto' | 'always' | 'never';
  shutdownTimeoutMs: number;
  /** A request whose headers and body have not all arrived by then is cut with 408. */
  requestTimeoutMs: number;
  bodyLimitBytes: number;
  /** Shared rate-limit counters when several processes serve (architecture §2, decision 28). */
  redisUrl: string | null;
  /** Requests per minute per client address on the public visitor API; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Base of the Meta Conversions API; tests point it at a local receiver (architecture §5.10). */
  pixelApiUrl: string;
  pixelWorker: boolean;
  /**
   * Whether the analytics rollups are kept as events, leads and conversions are stored (decision 25).
   * Off, only the raw rows are stored, and the first write marks a rebuild, which the next start
   * with them on runs (or `embudo analytics rebuild`).
   */
  analyticsRollups: boolean;
  /** `city`: DB-IP Lite city database, loaded on first lookup; `off`: every lookup is unknown. */
  geoDatabase: 'city' | 'off';
  /**
   * Whether browsers enforce visitor pages' Content-Security-Policy or only report what it would
   * block (to /api/csp-report, logged), e.g. while trying a new video host.
   */
  cspMode: 'enforce' | 'report-only';
  /** `npm run bench`'s baseline: a tracking-shaped endpoint that stores nothing (off unless asked). */
  benchNoopEndpoint: boolean;
  /**
   * The provider's contact address, named by visitor pages' legal texts; an account's own contact
   * address overrides it. Null when unset: the texts then point to whoever sent the link.
   */
  legalContactEmail: string | null;
  /** What one account may store and ask of the owner API (see OWNER_LIMIT_DEFAULTS). */
  ownerLimits: OwnerLimits;
  /** The byte budget of page resolution's caches (an estimate of what they hold); 0 keeps nothing. */
  contentCacheBytes: number;
  /** The Studio's sessions and sign-in (decision 21). */
  studio: StudioSettings;
  /**
   * Server processes on this machine (WORKERS, default 1): more than one runs node's cluster, on
   * PostgreSQL only (decision 28).
   */
  workers: number;
  /** Custom domains' DNS verification and certificates (decision 27). */
  domains: DomainSettings;
}

export interface DomainSettings {
  /** The host custom domains point at with a CNAME (DOMAIN_TARGET; default the PUBLIC_URL's host). */
  target: string;
  /** The DNS servers verification asks (DNS_SERVERS, `ip` or `ip:port`); empty: the system's. */
  dnsServers: string[];
  /** How often each domain's records are looked up again (DOMAIN_CHECK_MINUTES, default 60). */
  checkIntervalMs: number;
  /** Addresses besides the loopback that may call /internal/tls/ask (TLS_ASK_ALLOW). */
  tlsAskAllow: string[];
}

export interface StudioSettings {
  /** A session ends this long after sign-in, however busy (SESSION_MAX_AGE_DAYS, default 30). */
  sessionMaxAgeMs: number;
  /** …or this long after its last request (SESSION_IDLE_DAYS, default 7). */
  sessionIdleMs: number;
  /**
   * Sign-in attempts per client address and, separately, per e-mail address, in each window
   * (SIGN_IN_ATTEMPTS, default 10, 0 turns the limit off; SIGN_IN_WINDOW_MINUTES, default 15).
   */
  signInAttempts: number;
  signInWindowMs: number;
}

export interface OwnerLimits {
  funnelsPerAccount: number;
  pagesPerFunnel: number;
  /** Characters of one rich-text field, once sanitised. */
  richTextChars: number;
  /** Characters of text (rich text, links, video fields) of all of a funnel's pages together. */
  funnelContentChars: number;
  /**
   * Owner API requests per API key (or Studio session) per minute, counted in Redis when REDIS_URL is
   * set (shared by every process), else in this process; 0 turns the limit off.
   */
  requestsPerMinute: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads ./.env into the environment when there is one; real environment variables win. */
export function loadEnvFileIfPresent(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment');
        return `${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const publicHost = new URL(publicUrl).hostname.toLowerCase();
  const baseDomains = [...new Set([...DEV_BASE_DOMAINS, ...e.BASE_DOMAINS, publicHost])];
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    baseDomains,
    publicUrl,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    redisUrl: e.REDIS_URL ? e.REDIS_URL : null,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    pixelApiUrl: e.PIXEL_API_URL.replace(/\/$/, ''),
    pixelWorker: e.PIXEL_WORKER === 'on',
    analyticsRollups: e.ANALYTICS_ROLLUPS === 'on',
    geoDatabase: e.GEO_DATABASE,
    cspMode: e.CSP_MODE,
    benchNoopEndpoint: e.BENCH_NOOP_ENDPOINT === 'on',
    legalContactEmail: e.LEGAL_CONTACT_EMAIL === '' ? null : e.LEGAL_CONTACT_EMAIL,
    ownerLimits: {
      funnelsPerAccount: e.MAX_FUNNELS_PER_ACCOUNT,
      pagesPerFunnel: e.MAX_PAGES_PER_FUNNEL,
      richTextChars: e.MAX_RICH_TEXT_CHARS,
      funnelContentChars: e.MAX_FUNNEL_CONTENT_CHARS,
      requestsPerMinute: e.OWNER_RATE_LIMIT_PER_MINUTE,
    },
    contentCacheBytes: e.CONTENT_CACHE_BYTES,
    studio: {
      sessionMaxAgeMs: e.SESSION_MAX_AGE_DAYS * DAY_MS,
      sessionIdleMs: e.SESSION_IDLE_DAYS * DAY_MS,
      signInAttempts: e.SIGN_IN_ATTEMPTS,
      signInWindowMs: e.SIGN_IN_WINDOW_MINUTES * 60_000,
    },
    workers: e.WORKERS,
    domains: {
      target: e.DOMAIN_TARGET === '' ? publicHost : e.DOMAIN_TARGET,
      dnsServers: e.DNS_SERVERS,
      checkIntervalMs: e.DOMAIN_CHECK_MINUTES * 60_000,
      tlsAskAllow: e.TLS_ASK_ALLOW,
    },
  };
}
