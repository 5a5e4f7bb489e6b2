import type { FunnelPageData } from '@embudo/contracts';

/** The pure rules behind the timed persuasion elements (visitor-behaviour §4.8, §5, §9). */

export interface CountdownParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  expired: boolean;
}

/** What the countdown shows at `now` for a deadline (ISO); expired once the time has passed. */
export function countdownParts(deadline: string, now: number): CountdownParts {
  const left = Math.max(0, Date.parse(deadline) - now);
  const total = Math.floor(left / 1000);
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
    expired: !Number.isFinite(left) || left <= 0,
  };
}

/** A range the online count may use: exactly two finite numbers, low to high (visitor-behaviour §5). */
export function validRange(range: unknown): readonly [number, number] | null {
  if (!Array.isArray(range) || range.length !== 2) return null;
  const [low, high] = range as unknown[];
  if (typeof low !== 'number' || typeof high !== 'number') return null;
  if (!Number.isFinite(low) || !Number.isFinite(high)) return null;
  return low <= high ? [low, high] : [high, low];
}

/** A random whole number from `low` to `high`, both included. */
export const randomInt = (low: number, high: number, random: () => number = Math.random): number =>
  low + Math.floor(random() * (high - low + 1));

/** The first online count: somewhere in the range. */
export const firstOnlineCount = ([low, high]: readonly [number, number], random?: () => number) =>
  randomInt(Math.ceil(low), Math.floor(high), random);

/** The next online count: a change of -2 to +5, kept within the range (visitor-behaviour §4.8). */
export function nextOnlineCount(
  current: number,
  [low, high]: readonly [number, number],
  random?: () => number,
): number {
  const next = current + randomInt(-2, 5, random);
  return Math.min(Math.floor(high), Math.max(Math.ceil(low), next));
}

/** A country flag is shown only for a code of exactly two letters (visitor-behaviour §5). */
export const flagCode = (code: string | null | undefined): string | null =>
  typeof code === 'string' && /^[A-Za-z]{2}$/.test(code) ? code.toLowerCase() : null;

/** "n minutes ago": a random 1 to 10 (visitor-behaviour §4.8). */
export const minutesAgo = (random?: () => number): number => randomInt(1, 10, random);

export type FomoSite = 'LPI' | 'VIDEO' | 'OFFERT';

/** The social-proof site of a page (visitor-behaviour §4.7): the WhatsApp landing, the offer, or a video page. */
export function fomoSite(data: Pick<FunnelPageData, 'buttonAction'>): FomoSite {
  if (data.buttonAction === 'LPI-REDIRECT-WPP') return 'LPI';
  if (data.buttonAction === 'OFFERT') return 'OFFERT';
  return 'VIDEO';
}

/** Whether the owner switched social proof on for this page's site. */
export function fomoEnabled(data: Pick<FunnelPageData, 'buttonAction' | 'isFomoOn' | 'fomo'>): boolean {
  const site = fomoSite(data);
  const settings = site === 'LPI' ? data.fomo.lpi : site === 'OFFERT' ? data.fomo.offert : data.fomo.video;
  return data.isFomoOn && settings.fomoApplied;
}
