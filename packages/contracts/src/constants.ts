/** Business constants and timings of visitor-behaviour §9, in milliseconds unless named otherwise. */
export const TIMING = {
  locationCacheTtl: 24 * 60 * 60 * 1000,
  locationLookupTimeout: 3000,
  requestTimeout: 10_000,
  inactivityTimeout: 15 * 60 * 1000,
  buttonShortVideoMargin: 30_000,
  buttonFallbackTimer: 10_000,
  buttonCompleteDelay: 500,
  resumeOffset: 15_000,
  periodicProgress: 30_000,
  skipEventDelay: 1000,
  postClickWait: 100,
  resumeAfterInactivity: 100,
  countdownRefresh: 1000,
  countdownBannerDelay: 5000,
  nextVideoStep: 500,
  nextVideoSteps: 3,
  fakeProgressFill: 1500,
  fakeProgressLabel: 2000,
  fakeUsersDelay: 3000,
  fakeUsersEvery: 8000,
  fomoFirst: 15_000,
  fomoShown: 7000,
  fomoFade: 500,
  buttonBounceEvery: 3000,
} as const;

export const VIDEO_MILESTONES = [25, 50, 75] as const;
export const LOCATION_CACHE_KEY = 'ip_location_data';
export const USER_AGENT_MAX = 500;
export const DEFAULT_FAKE_USER_RANGE: readonly [number, number] = [20, 100];

/**
 * The site messages that mean the owner's account cannot show pages (visitor-behaviour §4.1): the visitor sees
 * 'Error al mostrar la página', not the page.
 */
export const ACCOUNT_ERROR_MESSAGES = ['INACTIVE_SUBSCRIPTION', 'CANT_GET_USER'] as const;

export function isAccountError(message: string | undefined): boolean {
  return (ACCOUNT_ERROR_MESSAGES as readonly (string | undefined)[]).includes(message);
}

/** Visitor pages speak Spanish unless the funnel says otherwise (visitor-behaviour §1). */
export const DEFAULT_LANGUAGE = 'es';
export const LANGUAGES = ['es', 'pt', 'en'] as const;

/**
 * What one account may store and ask, unless the operator set other limits (README, Configuration:
 * MAX_FUNNELS_PER_ACCOUNT, MAX_PAGES_PER_FUNNEL, MAX_RICH_TEXT_CHARS, MAX_FUNNEL_CONTENT_CHARS,
 * OWNER_RATE_LIMIT_PER_MINUTE). A save beyond one is refused, with a message naming the limit.
 */
export const OWNER_LIMIT_DEFAULTS = {
  funnelsPerAccount: 100,
  pagesPerFunnel: 60,
  /** Characters of one rich-text field, once sanitised. */
  richTextChars: 20_000,
  /** Characters of text (rich text, links, video fields) of all of a funnel's pages together. */
  funnelContentChars: 500_000,
  /** Owner API requests per API key per minute. */
  requestsPerMinute: 600,
} as const;
