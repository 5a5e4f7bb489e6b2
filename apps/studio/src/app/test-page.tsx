import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { vi } from 'vitest';
import { App } from './App';

/**
 * The Studio in a happy-dom page for tests: the whole app (router, queries, forms, messages); only the
 * network is a stand-in (`serve`) that answers as the server does. Not shipped: only tests import it.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export type Handler = (
  method: string,
  path: string,
  body: unknown,
) => Response | Promise<Response> | undefined;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export const unauthorized = () => json({ statusCode: 401, code: 'UNAUTHORIZED', message: 'Sign in' }, 401);
export const sent: { method: string; path: string; body: unknown }[] = [];

export function serve(handler: Handler) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
      const method = init.method ?? 'GET';
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      sent.push({ method, path, body });
      const answer = await handler(method, path, body);
      if (!answer) throw new Error(`no answer for ${method} ${path}`);
      return answer;
    }),
  );
}

let container: HTMLElement;
let root: Root | null = null;

/** The page's content (the app's container). */
export const page = (): HTMLElement => container;

export async function open(path: string, languages: readonly string[] = ['es-ES']) {
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
  window.history.replaceState(null, '', path);
  container = document.createElement('div');
  document.body.append(container);
  const created = createRoot(container);
  root = created;
  await act(async () => {
    created.render(<App />);
    await Promise.resolve();
  });
}

export function fieldLabelled(text: string): HTMLInputElement {
  const label = [...container.querySelectorAll('label')].find((l) => l.textContent.startsWith(text));
  const input = label ? document.getElementById(label.htmlFor) : null;
  if (!(input instanceof HTMLInputElement)) throw new Error(`no field labelled ${text}`);
  return input;
}

export async function type(input: HTMLInputElement, value: string) {
  // As the browser sets it (React's own value tracker would drop a plain `input.value =`).
  const descriptor = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  await act(async () => {
    descriptor?.set?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await Promise.resolve();
  });
}

export async function click(text: string) {
  const button = [...container.querySelectorAll('button')].find((b) => b.textContent === text);
  if (!button) throw new Error(`no button ${text}`);
  await act(async () => {
    button.click();
    await Promise.resolve();
  });
}

/** The message under a field, as a screen reader reaches it (aria-describedby). */
export function errorOf(input: HTMLInputElement): string | null {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const error = ids.map((id) => document.getElementById(id)).find((el) => el?.id.endsWith('-error'));
  return input.getAttribute('aria-invalid') === 'true' ? (error?.textContent ?? null) : null;
}

export const alertText = (): string | null => container.querySelector('[role="alert"]')?.textContent ?? null;

/** Unmounts the app and drops the network stand-in (each test's afterEach). */
export function closePage(): void {
  act(() => {
    root?.unmount();
  });
  root = null;
  container.remove();
  sent.length = 0;
  vi.unstubAllGlobals();
}
