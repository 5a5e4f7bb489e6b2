import type { SessionDetails } from '@embudo/contracts';
import { USER_AGENT_MAX } from '@embudo/contracts/runtime';
import { browserStorage } from '../lib/browser-storage';

/** One entry of `navigator.userAgentData.brands`. */
export interface BrandVersion {
  brand: string;
  version: string;
}

/** Chromium's high-entropy client hints we ask for: the real OS version and the CPU. */
export interface HighEntropyHints {
  platformVersion?: string;
  architecture?: string;
  bitness?: string;
}

/** `navigator.userAgentData` (Chromium only). */
export interface UserAgentHints {
  brands: readonly BrandVersion[];
  mobile?: boolean;
  platform?: string;
  getHighEntropyValues?: (hints: string[]) => Promise<HighEntropyHints>;
}

/** `navigator.connection` (Chromium only; `type` on Android only). */
export interface ConnectionInfo {
  type?: string;
  effectiveType?: string;
  downlink?: number;
  rtt?: number;
  saveData?: boolean;
}

/** What the device details read from the browser; anything a browser does not offer is left out. */
export interface BrowserEnvironment {
  userAgent: string;
  userAgentData?: UserAgentHints;
  platform?: string;
  language?: string;
  languages: readonly string[];
  cookieEnabled?: boolean;
  maxTouchPoints?: number;
  hardwareConcurrency?: number;
  connection?: ConnectionInfo;
  screenWidth?: number;
  screenHeight?: number;
  viewportWidth?: number;
  viewportHeight?: number;
  devicePixelRatio?: number;
  /** Pinch zoom (`visualViewport.scale`). */
  visualViewportScale?: number;
  referrer: string;
  /** `Intl.DateTimeFormat().resolvedOptions()`. */
  locale?: string;
  timeZone?: string;
  /** localStorage when it can be written, null where it is missing or throws (private modes). */
  localStorage: Storage | null;
}

type Browser = NonNullable<SessionDetails['browser']>;
type Os = NonNullable<SessionDetails['os']>;

/** The schema's limit on a short text field. */
const SHORT = 200;
const REFERRER_MAX = 2000;
const LOCATION_KEY_MAX = 60;
const HIGH_ENTROPY_TIMEOUT = 300;

/** A read that throws or is missing in some browsers gives undefined. */
function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function bool(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

type Loose = Record<string, unknown> | undefined;

function readHints(value: unknown): UserAgentHints | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const raw = value as Record<string, unknown>;
  const brands = Array.isArray(raw.brands) ? (raw.brands as unknown[]) : [];
  const ask = raw.getHighEntropyValues;
  return {
    brands: brands.flatMap((entry) => {
      const b = entry as Loose;
      const brand = text(b?.brand);
      return brand === undefined ? [] : [{ brand, version: text(b?.version) ?? '' }];
    }),
    mobile: bool(raw.mobile),
    platform: text(raw.platform),
    getHighEntropyValues:
      typeof ask === 'function'
        ? async (hints) => {
            const answer = (await (ask as (h: string[]) => Promise<unknown>).call(value, hints)) as Loose;
            return {
              platformVersion: text(answer?.platformVersion),
              architecture: text(answer?.architecture),
              bitness: text(answer?.bitness),
            };
          }
        : undefined,
  };
}

function readConnection(value: unknown): ConnectionInfo | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Record<string, unknown>;
  return {
    type: text(c.type),
    effectiveType: text(c.effectiveType),
    downlink: finite(c.downlink),
    rtt: finite(c.rtt),
    saveData: bool(c.saveData),
  };
}

/** The browser environment from the real globals; never throws (nor on the server, where all is missing). */
export function readBrowserEnvironment(): BrowserEnvironment {
  // Read as unknown: every field is checked, and some (platform, connection) are not in every browser.
  const nav = attempt(() => navigator) as Record<string, unknown> | undefined;
  const languages = attempt(() => nav?.languages);
  const intl = attempt(() => Intl.DateTimeFormat().resolvedOptions());
  return {
    userAgent: text(attempt(() => nav?.userAgent)) ?? '',
    userAgentData: readHints(attempt(() => nav?.userAgentData)),
    platform: text(attempt(() => nav?.platform)),
    language: text(attempt(() => nav?.language)),
    languages: Array.isArray(languages) ? languages.filter((l): l is string => text(l) !== undefined) : [],
    cookieEnabled: bool(attempt(() => nav?.cookieEnabled)),
    maxTouchPoints: finite(attempt(() => nav?.maxTouchPoints)),
    hardwareConcurrency: finite(attempt(() => nav?.hardwareConcurrency)),
    connection: readConnection(attempt(() => nav?.connection)),
    screenWidth: finite(attempt(() => screen.width)),
    screenHeight: finite(attempt(() => screen.height)),
    viewportWidth: finite(attempt(() => window.innerWidth)),
    viewportHeight: finite(attempt(() => window.innerHeight)),
    devicePixelRatio: finite(attempt(() => window.devicePixelRatio)),
    visualViewportScale: finite(attempt(() => window.visualViewport?.scale)),
    referrer: text(attempt(() => document.referrer)) ?? '',
    locale: text(intl?.locale),
    timeZone: text(intl?.timeZone),
    // Only if a write goes through: Safari's old private mode has it but throws on write.
    localStorage: browserStorage('local', { writable: true }),
  };
}

/**
 * [name, pattern with the version as first group]; the first match wins. In-app and rebadged
 * Chromium browsers come before Chrome, and Chrome before Safari: they all say "Safari" too.
 */
const BROWSERS: readonly (readonly [string, RegExp])[] = [
  ['Instagram', /\bInstagram ([\d.]+)/],
  ['Facebook', /\bFBAV\/([\d.]+)/],
  // Facebook's iOS and Messenger views may name no version.
  ['Facebook', /\b(?:FBAN|FB_IAB)\/()/],
  ['Samsung Internet', /\bSamsungBrowser\/([\d.]+)/],
  ['Opera', /\b(?:OPR|OPT|OPiOS)\/([\d.]+)/],
  ['Edge', /\bEdg(?:e|A|iOS)?\/([\d.]+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Android WebView', /; wv\).*\bChrome\/([\d.]+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/([\d.]+)/],
  ['Safari', /\bVersion\/([\d.]+).*\bSafari\//],
];

const OSES: readonly (readonly [string, RegExp])[] = [
  ['iOS', /\b(?:iPhone|iPad|iPod)\b(?:.*?\bOS (\d+(?:_\d+)*))?/],
  ['Android', /\bAndroid(?: (\d+(?:\.\d+)*))?/],
  ['Windows', /\bWindows NT (\d+\.\d+)/],
  ['Chrome OS', /\bCrOS\b()/],
  ['macOS', /\bMac OS X(?: (\d+(?:[._]\d+)*))?/],
  ['Linux', /\bLinux\b()/],
];

const WINDOWS_VERSIONS: Record<string, string> = { '10.0': '10', '6.3': '8.1', '6.2': '8', '6.1': '7' };

function firstMatch(
  table: readonly (readonly [string, RegExp])[],
  ua: string,
): { name: string; version?: string } | undefined {
  for (const [name, pattern] of table) {
    const match = pattern.exec(ua);
    if (match) return { name, version: match[1]?.replace(/_/g, '.') || undefined };
  }
  return undefined;
}

/** The engine: iOS browsers (CriOS, FxiOS, EdgiOS) say neither Chrome/ nor Gecko/, so they read as WebKit. */
function uaEngine(ua: string): string | undefined {
  if (/\bEdge\//.test(ua)) return 'EdgeHTML';
  if (/\b(?:Chrome|Chromium)\//.test(ua)) return 'Blink';
  if (/\bGecko\/\d/.test(ua)) return 'Gecko';
  if (/\bAppleWebKit\//.test(ua)) return 'WebKit';
  return /\bTrident\//.test(ua) ? 'Trident' : undefined;
}

function uaArchitecture(ua: string, os: string | undefined): string | undefined {
  if (/\b(?:x86_64|x64|Win64|WOW64|amd64)\b/i.test(ua)) return 'x86_64';
  // Every device that runs a current iOS is 64-bit ARM.
  if (os === 'iOS' || /\b(?:aarch64|arm64|armv8l?)\b/i.test(ua)) return 'arm64';
  if (/\barmv7l?\b/i.test(ua)) return 'arm';
  return /\bi[3-6]86\b/.test(ua) ? 'x86' : undefined;
}

/** Browser and OS out of the user-agent string. */
export function parseUserAgent(ua: string, maxTouchPoints = 0): { browser: Browser; os: Os; inApp: boolean } {
  const browser = firstMatch(BROWSERS, ua);
  const os = firstMatch(OSES, ua);
  let osName = os?.name;
  let osVersion = os?.version;
  if (osName === 'Windows' && osVersion !== undefined) osVersion = WINDOWS_VERSIONS[osVersion] ?? osVersion;
  // An iPad asks for desktop pages as a Mac (frozen at 10.15.7); only touch gives it away.
  if (osName === 'macOS' && maxTouchPoints > 1) [osName, osVersion] = ['iOS', undefined];
  return {
    browser: { name: browser?.name, version: browser?.version, engine: uaEngine(ua) },
    os: { name: osName, version: osVersion, architecture: uaArchitecture(ua, osName) },
    inApp: browser?.name === 'Instagram' || browser?.name === 'Facebook',
  };
}

/** Chromium's meaningless "Not A(Brand", "Not/A)Brand", … entries, there so sites cannot match brand lists. */
const GREASE_BRAND = /^not[^a-z]*a[^a-z]*brand$/i;
const BRAND_NAMES: Record<string, string> = { 'Google Chrome': 'Chrome', 'Microsoft Edge': 'Edge' };

function hintedBrowser(hints: UserAgentHints): Browser {
  const real = hints.brands.filter((b) => !GREASE_BRAND.test(b.brand));
  // The product brand, not the Chromium it is built on.
  const pick = real.find((b) => b.brand !== 'Chromium') ?? real[0];
  if (!pick) return {};
  return { name: BRAND_NAMES[pick.brand] ?? pick.brand, version: pick.version, engine: 'Blink' };
}

function hintedOs(hints: UserAgentHints, high: HighEntropyHints): Os {
  const name = hints.platform === 'Unknown' ? undefined : hints.platform;
  let version = high.platformVersion;
  if (name === 'Windows' && version !== undefined) {
    // Windows answers its UA platform version: 13 and above is Windows 11, 1 to 10 is Windows 10.
    const major = Number.parseInt(version, 10);
    version = major >= 13 ? '11' : major > 0 ? '10' : undefined;
  }
  const { architecture, bitness } = high;
  return {
    name,
    version,
    architecture:
      architecture && bitness === '64'
        ? architecture === 'x86'
          ? 'x86_64'
          : `${architecture}64`
        : architecture,
  };
}

async function highEntropy(hints: UserAgentHints | undefined): Promise<HighEntropyHints> {
  const ask = hints?.getHighEntropyValues;
  if (!ask) return {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // A browser that never answers must not hold the session start back.
    return await Promise.race([
      ask(['platformVersion', 'architecture', 'bitness']),
      new Promise<HighEntropyHints>((resolve) => {
        timer = setTimeout(() => {
          resolve({});
        }, HIGH_ENTROPY_TIMEOUT);
      }),
    ]);
  } catch {
    return {};
  } finally {
    clearTimeout(timer);
  }
}

type Field = string | number | boolean | undefined;

/** A part of the details: unknown and empty fields left out, text cut to the schema's limit. */
function part<T extends Record<string, Field>>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, Field> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined && value !== '')
      out[key] = typeof value === 'string' ? value.slice(0, SHORT) : value;
  }
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Our fingerprint is a coarse grouping key, not an identifier: the SHA-256 of traits that all devices
 * of one model and setup share (user agent, languages, screen size, time zone, CPU count, platform,
 * touch points). It is computed here, sends nothing anywhere, and is absent where Web Crypto is missing
 * (pages served over plain http).
 */
async function fingerprint(env: BrowserEnvironment): Promise<string | undefined> {
  // Sorted so that turning the phone does not change it.
  const screenSize = [env.screenWidth ?? 0, env.screenHeight ?? 0].sort((a, b) => a - b);
  const traits = JSON.stringify([
    env.userAgent,
    env.languages,
    screenSize,
    env.timeZone,
    env.hardwareConcurrency,
    env.userAgentData?.platform ?? env.platform,
    env.maxTouchPoints,
  ]);
  try {
    return hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(traits)));
  } catch {
    return undefined;
  }
}

/** The device details of a tracking session (visitor-behaviour §3), every field within the `SessionDetails` schema. */
export async function collectDeviceDetails(
  env: BrowserEnvironment,
  extra: {
    sessionCount: number;
    visitorType: 'NEW' | 'RETURNING';
    deviceId: string;
    location: Record<string, unknown>;
  },
): Promise<SessionDetails> {
  const [high, print] = await Promise.all([highEntropy(env.userAgentData), fingerprint(env)]);
  const fromUa = parseUserAgent(env.userAgent, env.maxTouchPoints);
  const hints = env.userAgentData;
  // Client hints name the browser better, except inside Instagram or Facebook, which they call WebView.
  const browser =
    hints && !fromUa.inApp ? { ...part(fromUa.browser), ...part(hintedBrowser(hints)) } : fromUa.browser;
  const os = hints ? { ...part(fromUa.os), ...part(hintedOs(hints, high)) } : fromUa.os;
  const scale = (env.devicePixelRatio ?? 1) * (env.visualViewportScale ?? 1);
  const zoomKnown = env.devicePixelRatio !== undefined || env.visualViewportScale !== undefined;
  const c = env.connection;
  const languages = env.languages.slice(0, 30).map((l) => l.slice(0, SHORT));
  return {
    userAgent: env.userAgent.slice(0, USER_AGENT_MAX),
    videoStatus: 'INCOMPLETED',
    browser: part(browser),
    os: part(os),
    display: part({
      screenWidth: env.screenWidth,
      screenHeight: env.screenHeight,
      viewportWidth: env.viewportWidth,
      viewportHeight: env.viewportHeight,
      // Device pixels per CSS pixel as the visitor sees the page: browser zoom and OS scaling, times pinch zoom.
      zoom: zoomKnown ? Math.round(scale * 100) / 100 : undefined,
    }),
    capabilities: part({
      touch: env.maxTouchPoints === undefined ? undefined : env.maxTouchPoints > 0,
      cookiesEnabled: env.cookieEnabled,
      localStorageAvailable: env.localStorage !== null,
    }),
    preferences: {
      ...part({ mainLanguage: env.language ?? languages[0], dateTimeFormat: env.locale }),
      languages,
    },
    network: part({
      connectionType: c?.type,
      effectiveType: c?.effectiveType,
      downlink: c?.downlink,
      rtt: c?.rtt,
      saveData: c?.saveData,
    }),
    referrer: env.referrer.slice(0, REFERRER_MAX),
    sessionCount: Math.min(Math.max(Math.trunc(extra.sessionCount) || 0, 0), 1_000_000),
    visitorType: extra.visitorType,
    ...part({ fingerprint: print }),
    privacySensitiveData: {
      deviceId: extra.deviceId.slice(0, SHORT),
      location: Object.fromEntries(
        Object.entries(extra.location).filter(([key]) => key.length <= LOCATION_KEY_MAX),
      ),
    },
  };
}
