import type { BrowserContext, Page } from 'playwright-core';

/**
 * The XSS probe of the end-to-end tier, shared by rich-text-xss.test.ts and browser-sanitiser.test.ts:
 * installed in every frame before any page script runs, it records into window.__xssHits every call
 * payloads use to prove they ran, and blocks it: the dialogs, print, document.write, eval, Function
 * and string timers. (A report-only CSP is no witness here: Chromium reports an inline handler when
 * DOMParser merely parses it, and DOMPurify parses every payload with DOMParser.)
 */

/** The window of a page the probe is installed in. */
export interface ProbedWindow {
  __xssHits?: string[];
}

/** What reading the hits gives where the probe is not installed: never an empty list. */
export const PROBE_MISSING = 'instrumentation missing';

/** The probe as source text, so that no transpiler helper leaks into the browser. */
export const XSS_PROBE = String.raw`(() => {
  const hits = [];
  Object.defineProperty(window, '__xssHits', { value: hits, configurable: false, writable: false });
  const show = (args) => {
    try {
      return Array.prototype.map.call(args, (a) => String(a)).join(', ').slice(0, 200);
    } catch (e) {
      return '?';
    }
  };
  const record = (what, args) => hits.push(what + '(' + show(args) + ')');
  // Playwright's own page.evaluate and waitForFunction go through eval: they pass, unrecorded.
  const fromPlaywright = () => /UtilityScript/.test(String(new Error().stack));
  window.alert = function () { record('alert', arguments); };
  window.confirm = function () { record('confirm', arguments); return false; };
  window.prompt = function () { record('prompt', arguments); return null; };
  window.print = function () { record('print', arguments); };
  const realEval = window.eval;
  window.eval = function (code) {
    if (fromPlaywright()) return realEval(code);
    record('eval', arguments);
    return undefined;
  };
  const RealFunction = Function;
  const FakeFunction = function () {
    if (fromPlaywright()) return RealFunction.apply(null, arguments);
    record('Function', arguments);
    return function () {};
  };
  FakeFunction.prototype = RealFunction.prototype;
  window.Function = FakeFunction;
  try { RealFunction.prototype.constructor = FakeFunction; } catch (e) {}
  for (const name of ['setTimeout', 'setInterval']) {
    const real = window[name];
    window[name] = function (handler) {
      if (typeof handler !== 'function') { record(name + ' with a string', arguments); return 0; }
      return real.apply(this, arguments);
    };
  }
  for (const name of ['write', 'writeln']) {
    Document.prototype[name] = function () { record('document.' + name, arguments); };
  }
})();`;

/** Installs the probe in every page and frame of the context (or in the page) before its scripts. */
export async function installXssProbe(target: BrowserContext | Page): Promise<void> {
  await target.addInitScript(XSS_PROBE);
}

/** Every call the probe blocked in the page so far; [PROBE_MISSING] when it is not installed. */
export function xssHits(page: Page): Promise<string[]> {
  return page.evaluate(
    (missing) => [...((window as unknown as ProbedWindow).__xssHits ?? [missing])],
    PROBE_MISSING,
  );
}
