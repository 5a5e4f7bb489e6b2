import { SessionDetails } from '@embudo/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  collectDeviceDetails,
  readBrowserEnvironment,
  type BrowserEnvironment,
  type HighEntropyHints,
} from './device-details';

/** User-agent strings as these devices send them. */
const UA = {
  // A budget Android phone on current Chrome: the reduced string, model and OS version frozen.
  androidChrome:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  iphoneInstagram:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 337.0.3.23.54 (iPhone13,2; iOS 17_5_1; es_MX; es; scale=3.00; 1170x2532; 615314497; IABMV/1)',
  iphoneFacebook:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/16.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]',
  androidFacebook:
    'Mozilla/5.0 (Linux; Android 12; SM-A125F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/108.0.5359.128 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/397.0.0.23.404;]',
  androidInstagram:
    'Mozilla/5.0 (Linux; Android 13; SM-A135F Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.6422.165 Mobile Safari/537.36 Instagram 334.0.0.42.95 Android (33/13; 450dpi; 1080x2190; samsung; SM-A135F; a13; exynos850; es_US; 601420827)',
  samsungInternet:
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  windowsEdge:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  windowsOpera:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
  macFirefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  linuxChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
} as const;

/** A phone as a browser reports it; each test changes what it is about. */
function environment(overrides: Partial<BrowserEnvironment> = {}): BrowserEnvironment {
  return {
    userAgent: UA.androidChrome,
    platform: 'Linux armv81',
    language: 'es-MX',
    languages: ['es-MX', 'es', 'en'],
    cookieEnabled: true,
    maxTouchPoints: 5,
    hardwareConcurrency: 8,
    screenWidth: 393,
    screenHeight: 873,
    viewportWidth: 393,
    viewportHeight: 740,
    devicePixelRatio: 2.75,
    referrer: 'https://l.instagram.com/',
    locale: 'es-MX',
    timeZone: 'America/Mexico_City',
    localStorage: null,
    ...overrides,
  };
}

const EXTRA = {
  sessionCount: 2,
  visitorType: 'RETURNING',
  deviceId: 'device_1747750000000_a1b2c3d4e5f6a7b8',
  location: {
    country: 'Mexico',
    countryCode: 'MX',
    city: 'Guadalajara',
    latitude: 20.67,
    longitude: -103.35,
  },
} as const;

function collect(overrides: Partial<BrowserEnvironment> = {}): Promise<SessionDetails> {
  return collectDeviceDetails(environment(overrides), { ...EXTRA, location: { ...EXTRA.location } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('browser and OS from the user agent', () => {
  it.each([
    [
      'androidChrome',
      { name: 'Chrome', version: '131.0.0.0', engine: 'Blink' },
      { name: 'Android', version: '10' },
    ],
    ['iphoneSafari', { name: 'Safari', version: '17.5', engine: 'WebKit' }, { name: 'iOS', version: '17.5' }],
    [
      'iphoneInstagram',
      { name: 'Instagram', version: '337.0.3.23.54', engine: 'WebKit' },
      { name: 'iOS', version: '17.5.1' },
    ],
    ['iphoneFacebook', { name: 'Facebook', engine: 'WebKit' }, { name: 'iOS', version: '16.1' }],
    [
      'androidFacebook',
      { name: 'Facebook', version: '397.0.0.23.404', engine: 'Blink' },
      { name: 'Android', version: '12' },
    ],
    [
      'androidInstagram',
      { name: 'Instagram', version: '334.0.0.42.95', engine: 'Blink' },
      { name: 'Android', version: '13' },
    ],
    [
      'samsungInternet',
      { name: 'Samsung Internet', version: '25.0', engine: 'Blink' },
      { name: 'Android', version: '14' },
    ],
    // Chrome on iOS is WebKit underneath, like every iOS browser.
    [
      'iphoneChrome',
      { name: 'Chrome', version: '126.0.6478.54', engine: 'WebKit' },
      { name: 'iOS', version: '17.5' },
    ],
    [
      'windowsEdge',
      { name: 'Edge', version: '131.0.0.0', engine: 'Blink' },
      { name: 'Windows', version: '10', architecture: 'x86_64' },
    ],
    [
      'windowsOpera',
      { name: 'Opera', version: '115.0.0.0', engine: 'Blink' },
      { name: 'Windows', version: '10' },
    ],
    [
      'macFirefox',
      { name: 'Firefox', version: '133.0', engine: 'Gecko' },
      { name: 'macOS', version: '10.15' },
    ],
    [
      'macSafari',
      { name: 'Safari', version: '17.5', engine: 'WebKit' },
      { name: 'macOS', version: '10.15.7' },
    ],
    [
      'linuxChrome',
      { name: 'Chrome', version: '131.0.0.0', engine: 'Blink' },
      { name: 'Linux', architecture: 'x86_64' },
    ],
  ] as const)('%s is %o on %o', async (device, browser, os) => {
    const details = await collect({
      userAgent: UA[device],
      maxTouchPoints: device.startsWith('mac') ? 0 : 5,
    });
    expect(details.browser).toEqual(browser);
    expect(details.os).toMatchObject(os);
    expect(SessionDetails.parse(details)).toEqual(details);
  });

  it('tells an iPad asking for the desktop site (a Mac user agent) by its touch screen', async () => {
    const details = await collect({ userAgent: UA.macSafari, maxTouchPoints: 5 });
    expect(details.os).toEqual({ name: 'iOS', architecture: 'arm64' });
    expect(details.browser?.name).toBe('Safari');
  });

  it('leaves out what an unknown user agent does not tell', async () => {
    const details = await collect({ userAgent: 'curl/8.5.0' });
    expect(details.browser).toEqual({});
    expect(details.os).toEqual({});
  });
});

describe('browser and OS from client hints (navigator.userAgentData)', () => {
  const edgeBrands = [
    { brand: 'Not)A;Brand', version: '99' },
    { brand: 'Microsoft Edge', version: '127' },
    { brand: 'Chromium', version: '127' },
  ];

  it('names the product brand, skipping the "Not A Brand" entry and Chromium, with the OS from the hints', async () => {
    const ask = vi.fn((): Promise<HighEntropyHints> =>
      Promise.resolve({ platformVersion: '15.0.0', architecture: 'x86', bitness: '64' }),
    );
    const details = await collect({
      userAgent: UA.windowsEdge,
      userAgentData: { brands: edgeBrands, mobile: false, platform: 'Windows', getHighEntropyValues: ask },
      maxTouchPoints: 0,
    });
    expect(details.browser).toEqual({ name: 'Edge', version: '127', engine: 'Blink' });
    // Platform version 13 and above is Windows 11, which the user agent cannot tell from 10.
    expect(details.os).toEqual({ name: 'Windows', version: '11', architecture: 'x86_64' });
    expect(ask).toHaveBeenCalledWith(['platformVersion', 'architecture', 'bitness']);
  });

  it('says Chrome for Google Chrome and Chromium when nothing else is named', async () => {
    const chrome = await collect({
      userAgentData: {
        brands: [
          { brand: 'Google Chrome', version: '131' },
          { brand: 'Chromium', version: '131' },
          { brand: 'Not_A Brand', version: '24' },
        ],
        platform: 'Android',
      },
    });
    expect(chrome.browser).toEqual({ name: 'Chrome', version: '131', engine: 'Blink' });
    const chromium = await collect({
      userAgentData: {
        brands: [
          { brand: 'Not/A)Brand', version: '8' },
          { brand: 'Chromium', version: '126' },
        ],
        platform: 'Linux',
      },
    });
    expect(chromium.browser).toEqual({ name: 'Chromium', version: '126', engine: 'Blink' });
  });

  it('keeps Instagram as the browser inside its app, where the hints only say WebView', async () => {
    const details = await collect({
      userAgent: UA.androidInstagram,
      userAgentData: {
        brands: [{ brand: 'Android WebView', version: '125' }],
        mobile: true,
        platform: 'Android',
      },
    });
    expect(details.browser).toEqual({ name: 'Instagram', version: '334.0.0.42.95', engine: 'Blink' });
    expect(details.os).toMatchObject({ name: 'Android', version: '13' });
  });

  it('falls back to the user agent for what high-entropy hints do not answer: refused or never answered', async () => {
    const refused = await collect({
      userAgent: UA.windowsEdge,
      userAgentData: {
        brands: edgeBrands,
        platform: 'Windows',
        getHighEntropyValues: () => Promise.reject(new DOMException('denied', 'NotAllowedError')),
      },
    });
    expect(refused.os).toEqual({ name: 'Windows', version: '10', architecture: 'x86_64' });

    vi.useFakeTimers();
    const pending = collect({
      userAgent: UA.windowsEdge,
      userAgentData: {
        brands: edgeBrands,
        platform: 'Windows',
        getHighEntropyValues: () => new Promise(() => {}),
      },
    });
    await vi.advanceTimersByTimeAsync(300);
    expect((await pending).os).toEqual({ name: 'Windows', version: '10', architecture: 'x86_64' });
  });
});

describe('the other device details', () => {
  it('rounds zoom to two decimals', async () => {
    expect((await collect({ devicePixelRatio: 1.3333 })).display?.zoom).toBe(1.33);
    expect((await collect({ devicePixelRatio: 1.005 * 2 })).display?.zoom).toBe(2.01);
  });

  it('counts pinch zoom into zoom, and leaves zoom out when the browser tells neither', async () => {
    expect((await collect({ devicePixelRatio: 2, visualViewportScale: 1.5 })).display?.zoom).toBe(3);
    const details = await collect({ devicePixelRatio: undefined });
    expect(details.display).toEqual({
      screenWidth: 393,
      screenHeight: 873,
      viewportWidth: 393,
      viewportHeight: 740,
    });
  });

  it('cuts the user agent to 500 characters', async () => {
    const long = `${UA.androidChrome} ${'x'.repeat(800)}`;
    const details = await collect({ userAgent: long });
    expect(details.userAgent).toBe(long.slice(0, 500));
    expect(details.browser?.name).toBe('Chrome');
  });

  it('reports capabilities, language preferences, and only the network facts the browser has', async () => {
    const details = await collect({
      connection: { effectiveType: '3g', downlink: 1.45, rtt: 300, saveData: true },
      localStorage: null,
    });
    expect(details.capabilities).toEqual({ touch: true, cookiesEnabled: true, localStorageAvailable: false });
    expect(details.preferences).toEqual({
      mainLanguage: 'es-MX',
      languages: ['es-MX', 'es', 'en'],
      dateTimeFormat: 'es-MX',
    });
    expect(details.network).toEqual({ effectiveType: '3g', downlink: 1.45, rtt: 300, saveData: true });
    // Safari and Firefox have no navigator.connection.
    expect((await collect({ userAgent: UA.iphoneSafari })).network).toEqual({});
  });

  it('carries the visit, the device id and the location through, with the fixed video status', async () => {
    const details = await collect();
    expect(details).toMatchObject({
      videoStatus: 'INCOMPLETED',
      referrer: 'https://l.instagram.com/',
      sessionCount: 2,
      visitorType: 'RETURNING',
      privacySensitiveData: { deviceId: EXTRA.deviceId, location: EXTRA.location },
    });
  });

  it('stays within the schema when the browser reports oversized values', async () => {
    const details = await collectDeviceDetails(
      environment({
        userAgent: 'y'.repeat(20_000),
        languages: Array.from({ length: 40 }, (_, i) => `l${i}-${'z'.repeat(300)}`),
        referrer: `https://example.com/?q=${'r'.repeat(5000)}`,
        userAgentData: {
          brands: [{ brand: 'B'.repeat(300), version: '9'.repeat(300) }],
          platform: 'P'.repeat(300),
        },
        connection: { type: 'cellular', effectiveType: '4g'.repeat(200) },
      }),
      {
        sessionCount: 2_000_000,
        visitorType: 'RETURNING',
        deviceId: 'device_1_x',
        location: { ['k'.repeat(80)]: 1 },
      },
    );
    expect(() => SessionDetails.parse(details)).not.toThrow();
    expect(details.sessionCount).toBe(1_000_000);
    expect(details.preferences?.languages).toHaveLength(30);
  });
});

describe('the fingerprint', () => {
  it('is a SHA-256 hex, the same for the same device traits', async () => {
    const a = (await collect()).fingerprint;
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    // What is not a device trait (window size, zoom, referrer, the visit) does not change it.
    const b = await collectDeviceDetails(
      environment({ viewportHeight: 500, devicePixelRatio: 1, referrer: '' }),
      { ...EXTRA, sessionCount: 9 },
    );
    expect(b.fingerprint).toBe(a);
    // Nor does turning the phone.
    expect((await collect({ screenWidth: 873, screenHeight: 393 })).fingerprint).toBe(a);
  });

  it.each<[string, Partial<BrowserEnvironment>]>([
    ['time zone', { timeZone: 'America/Bogota' }],
    ['languages', { languages: ['pt-BR', 'pt'] }],
    ['screen', { screenWidth: 412, screenHeight: 915 }],
    ['user agent', { userAgent: UA.samsungInternet }],
    ['CPU count', { hardwareConcurrency: 4 }],
    ['touch points', { maxTouchPoints: 0 }],
  ])('differs when the %s differs', async (_trait, change) => {
    const same = (await collect()).fingerprint;
    const other = (await collect(change)).fingerprint;
    expect(other).toMatch(/^[0-9a-f]{64}$/);
    expect(other).not.toBe(same);
  });

  it('is left out where Web Crypto is missing (a page on plain http), the rest still sent', async () => {
    vi.stubGlobal('crypto', {});
    const details = await collect();
    expect(details).not.toHaveProperty('fingerprint');
    expect(details.browser?.name).toBe('Chrome');
    expect(() => SessionDetails.parse(details)).not.toThrow();
  });
});

describe('reading the real browser', () => {
  it('reads nothing, and throws nothing, where there is no browser (server rendering)', () => {
    const env = readBrowserEnvironment();
    expect(env).toMatchObject({ userAgent: '', languages: [], referrer: '', localStorage: null });
  });

  it('reads the globals, and survives reads that throw', async () => {
    const throwing = (): never => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    vi.stubGlobal('navigator', {
      userAgent: UA.windowsEdge,
      language: 'pt-BR',
      languages: ['pt-BR', 'pt'],
      cookieEnabled: false,
      maxTouchPoints: 0,
      hardwareConcurrency: 12,
      platform: 'Win32',
      userAgentData: {
        brands: [{ brand: 'Microsoft Edge', version: '131' }, { brand: 42 }],
        mobile: false,
        platform: 'Windows',
        getHighEntropyValues(this: unknown, hints: string[]) {
          // Called as a method of userAgentData, as Chromium insists.
          return Promise.resolve(this === undefined ? {} : { platformVersion: '15.0.0', hints });
        },
      },
      get connection(): never {
        return throwing();
      },
    });
    vi.stubGlobal('screen', { width: 1920, height: 1080 });
    vi.stubGlobal('document', { referrer: 'https://www.google.com/' });
    vi.stubGlobal('window', {
      innerWidth: 1280,
      innerHeight: 720,
      devicePixelRatio: 1.5,
      visualViewport: null,
      get localStorage(): never {
        return throwing();
      },
    });

    const env = readBrowserEnvironment();
    expect(env).toMatchObject({
      userAgent: UA.windowsEdge,
      language: 'pt-BR',
      cookieEnabled: false,
      screenWidth: 1920,
      viewportWidth: 1280,
      devicePixelRatio: 1.5,
      referrer: 'https://www.google.com/',
      localStorage: null,
    });
    expect(env.connection).toBeUndefined();
    expect(env.userAgentData?.brands).toEqual([{ brand: 'Microsoft Edge', version: '131' }]);

    const details = await collectDeviceDetails(env, EXTRA);
    expect(details.os).toEqual({ name: 'Windows', version: '11', architecture: 'x86_64' });
    expect(details.capabilities).toEqual({
      touch: false,
      cookiesEnabled: false,
      localStorageAvailable: false,
    });
    expect(details.display?.zoom).toBe(1.5);
  });

  it('takes localStorage only when it can be written to', () => {
    const items = new Map<string, string>();
    const storage = {
      setItem: (k: string, v: string) => items.set(k, v),
      removeItem: (k: string) => items.delete(k),
    };
    vi.stubGlobal('window', { localStorage: storage });
    expect(readBrowserEnvironment().localStorage).toBe(storage);
    expect(items.size).toBe(0);

    // Old Safari private windows: the object is there, every write fails.
    vi.stubGlobal('window', {
      localStorage: {
        setItem: () => {
          throw new DOMException('Quota exceeded', 'QuotaExceededError');
        },
      },
    });
    expect(readBrowserEnvironment().localStorage).toBeNull();
  });
});
