import { CHROMIUM_MISSING, chromiumAvailable } from './chromium';

/** Fails the end-to-end tier at once, with the fix, when Chromium is missing. */
export default function setup(): void {
  if (!chromiumAvailable()) throw new Error(CHROMIUM_MISSING);
}
