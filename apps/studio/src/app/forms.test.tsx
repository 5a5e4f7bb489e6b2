// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';

/**
 * The Studio in a browser-like page, the whole app (router, queries, forms, messages); only the
 * network is a stand-in that answers as the server does.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Handler = (method: string, path: string, body: unknown) => Response | Promise<Response> | undefined;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const unauthorized = () => json({ statusCode: 401, code: 'UNAUTHORIZED', message: 'Sign in' }, 401);
const sent: { method: string; path: string; body: unknown }[] = [];

function serve(handler: Handler) {
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
let root: Root;

async function open(path: string, languages: readonly string[] = ['es-ES']) {
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
  window.history.replaceState(null, '', path);
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () => {
    root.render(<App />);
    await Promise.resolve();
  });
}

function fieldLabelled(text: string): HTMLInputElement {
  const label = [...container.querySelectorAll('label')].find((l) => l.textContent.startsWith(text));
  const input = label ? document.getElementById(label.htmlFor) : null;
  if (!(input instanceof HTMLInputElement)) throw new Error(`no field labelled ${text}`);
  return input;
}

async function type(input: HTMLInputElement, value: string) {
  // As the browser sets it (React's own value tracker would drop a plain `input.value =`).
  const descriptor = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  await act(async () => {
    descriptor?.set?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await Promise.resolve();
  });
}

async function click(text: string) {
  const button = [...container.querySelectorAll('button')].find((b) => b.textContent === text);
  if (!button) throw new Error(`no button ${text}`);
  await act(async () => {
    button.click();
    await Promise.resolve();
  });
}

/** The message under a field, as a screen reader reaches it (aria-describedby). */
function errorOf(input: HTMLInputElement): string | null {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const error = ids.map((id) => document.getElementById(id)).find((el) => el?.id.endsWith('-error'));
  return input.getAttribute('aria-invalid') === 'true' ? (error?.textContent ?? null) : null;
}

const alertText = () => container.querySelector('[role="alert"]')?.textContent ?? null;

beforeEach(() => {
  sent.length = 0;
});

afterEach(() => {
  act(() => {
    root.unmount();
  });
  container.remove();
  vi.unstubAllGlobals();
});

async function fillSetup() {
  await vi.waitFor(() => fieldLabelled('Tu nombre'));
  await type(fieldLabelled('Tu nombre'), 'Ana Souza');
  await type(fieldLabelled('Correo electrónico'), 'ana@acme.com');
  await type(fieldLabelled('Contraseña'), 'a long enough password');
  await type(fieldLabelled('Nombre de la cuenta'), 'Acme');
  await type(fieldLabelled('Identificador'), 'acme');
}

describe('the first-run form', () => {
  it("shows the server's field errors next to their fields and keeps what was typed", async () => {
    serve((method, path) => {
      if (path === '/api/auth/session') return unauthorized();
      if (path === '/api/auth/setup' && method === 'GET') return json({ needed: true });
      if (path === '/api/auth/setup' && method === 'POST')
        return json(
          {
            statusCode: 400,
            code: 'VALIDATION_ERROR',
            message: 'Invalid body',
            issues: [
              { path: 'body.accountSlug', message: 'this slug is taken' },
              { path: 'body.password', message: 'password_too_common' },
            ],
          },
          400,
        );
      return undefined;
    });
    await open('/studio/setup');
    await fillSetup();
    await click('Crear cuenta');
    await vi.waitFor(() => {
      expect(errorOf(fieldLabelled('Identificador'))).toBe('this slug is taken');
    });
    expect(errorOf(fieldLabelled('Contraseña'))).toBe('password_too_common');
    expect(errorOf(fieldLabelled('Tu nombre'))).toBeNull();
    expect(fieldLabelled('Nombre de la cuenta').value).toBe('Acme');
    expect(fieldLabelled('Identificador').value).toBe('acme');
    expect(sent.filter((s) => s.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/auth/setup',
        body: {
          name: 'Ana Souza',
          email: 'ana@acme.com',
          password: 'a long enough password',
          accountName: 'Acme',
          accountSlug: 'acme',
          language: 'es',
        },
      },
    ]);
  });

  it('checks the contract before sending: nothing is sent, each field says what is wrong in Spanish', async () => {
    serve((method, path) => {
      if (path === '/api/auth/session') return unauthorized();
      if (path === '/api/auth/setup' && method === 'GET') return json({ needed: true });
      return undefined;
    });
    await open('/studio/setup');
    await vi.waitFor(() => fieldLabelled('Tu nombre'));
    await type(fieldLabelled('Correo electrónico'), 'not an address');
    await click('Crear cuenta');
    await vi.waitFor(() => {
      expect(errorOf(fieldLabelled('Tu nombre'))).toBe('Este campo es obligatorio.');
    });
    expect(errorOf(fieldLabelled('Correo electrónico'))).toBe('Escribe un correo electrónico válido.');
    expect(sent.filter((s) => s.method === 'POST')).toEqual([]);
  });

  it('on a 5xx says so above the button and keeps every field as typed', async () => {
    serve((method, path) => {
      if (path === '/api/auth/session') return unauthorized();
      if (path === '/api/auth/setup' && method === 'GET') return json({ needed: true });
      if (path === '/api/auth/setup' && method === 'POST')
        return json({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'Try later' }, 503);
      return undefined;
    });
    await open('/studio/setup');
    await fillSetup();
    await click('Crear cuenta');
    await vi.waitFor(() => {
      expect(alertText()).toContain('Algo falló de nuestro lado');
    });
    expect(fieldLabelled('Tu nombre').value).toBe('Ana Souza');
    expect(fieldLabelled('Contraseña').value).toBe('a long enough password');
  });
});

describe('the language', () => {
  it("is the browser's when signed out: a Brazilian browser gets Portuguese", async () => {
    serve((_method, path) => (path === '/api/auth/session' ? unauthorized() : undefined));
    await open('/studio/sign-in', ['pt-BR', 'en']);
    await vi.waitFor(() => {
      expect(container.querySelector('h1')?.textContent).toBe('Entrar');
    });
    expect(document.documentElement.lang).toBe('pt');
  });
});

const ACCOUNT_ID = '11111111-1111-4111-8111-111111111111';
const SESSION = {
  user: { id: '33333333-3333-4333-8333-333333333333', email: 'ana@acme.com', name: 'Ana', language: 'es' },
  memberships: [{ account: { id: ACCOUNT_ID, slug: 'acme', name: 'Acme' }, role: 'owner' }],
  currentAccountId: ACCOUNT_ID,
  role: 'owner',
};
const ACCOUNT = {
  id: ACCOUNT_ID,
  slug: 'acme',
  name: 'Acme',
  subscriptionStatus: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  settings: { whatsappLandingButtonBgColor: null, contactEmail: null },
};

describe('the account settings form', () => {
  it('on a ROLE_REQUIRED 403 says which role is needed, and keeps the change', async () => {
    serve((method, path) => {
      if (path === '/api/auth/session') return json(SESSION);
      if (path === '/api/owner/account' && method === 'GET') return json(ACCOUNT);
      if (path === '/api/owner/account' && method === 'PATCH')
        return json(
          { statusCode: 403, code: 'ROLE_REQUIRED', message: 'Needs owner', requiredRole: 'owner' },
          403,
        );
      return undefined;
    });
    await open('/studio/settings/account');
    await vi.waitFor(() => fieldLabelled('Correo de contacto'));
    await type(fieldLabelled('Correo de contacto'), 'hola@acme.com');
    await click('Guardar cambios');
    await vi.waitFor(() => {
      expect(alertText()).toBe('Necesitas el rol Propietario para hacer esto.');
    });
    expect(fieldLabelled('Correo de contacto').value).toBe('hola@acme.com');
    expect(sent.find((s) => s.method === 'PATCH')?.body).toEqual({
      name: 'Acme',
      settings: { contactEmail: 'hola@acme.com', whatsappLandingButtonBgColor: null },
    });
  });

  it('a nested issue (body.settings.contactEmail) shows under its field', async () => {
    serve((method, path) => {
      if (path === '/api/auth/session') return json(SESSION);
      if (path === '/api/owner/account' && method === 'GET') return json(ACCOUNT);
      if (path === '/api/owner/account' && method === 'PATCH')
        return json(
          {
            statusCode: 400,
            code: 'VALIDATION_ERROR',
            message: 'Invalid body',
            issues: [{ path: 'body.settings.contactEmail', message: 'this address bounces' }],
          },
          400,
        );
      return undefined;
    });
    await open('/studio/settings/account');
    await vi.waitFor(() => fieldLabelled('Correo de contacto'));
    await type(fieldLabelled('Correo de contacto'), 'hola@acme.com');
    await click('Guardar cambios');
    await vi.waitFor(() => {
      expect(errorOf(fieldLabelled('Correo de contacto'))).toBe('this address bounces');
    });
    expect(alertText()).toBeNull();
  });
});

describe('a signed-out visit to a signed-in screen', () => {
  it('goes to sign-in, then back to that screen', async () => {
    let signedIn = false;
    serve((method, path) => {
      if (path === '/api/auth/session') return signedIn ? json(SESSION) : unauthorized();
      if (path === '/api/auth/setup') return json({ needed: false });
      if (path === '/api/auth/sign-in' && method === 'POST') {
        signedIn = true;
        return json(SESSION);
      }
      if (path === '/api/owner/account') return json(ACCOUNT);
      return undefined;
    });
    await open('/studio/settings/account');
    await vi.waitFor(() => {
      expect(window.location.pathname).toBe('/studio/sign-in');
    });
    expect(new URLSearchParams(window.location.search).get('next')).toBe('/settings/account');
    await type(fieldLabelled('Correo electrónico'), 'ana@acme.com');
    await type(fieldLabelled('Contraseña'), 'whatever it is');
    await click('Iniciar sesión');
    await vi.waitFor(() => {
      expect(window.location.pathname).toBe('/studio/settings/account');
    });
    await vi.waitFor(() => fieldLabelled('Correo de contacto'));
  });
});
