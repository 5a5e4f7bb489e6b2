// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  alertText,
  page,
  click,
  closePage,
  errorOf,
  fieldLabelled,
  json,
  open,
  sent,
  serve,
  type,
  unauthorized,
} from './test-page';

/**
 * Forms of the Studio in a browser-like page, the whole app; only the network is a stand-in that
 * answers as the server does.
 */

afterEach(closePage);

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
              {
                path: 'body.password',
                message: 'this password is too common: choose one that others do not use',
              },
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
    // A sentence the Studio knows is said in the owner's language.
    expect(errorOf(fieldLabelled('Contraseña'))).toBe(
      'Esta contraseña es demasiado común: elige una que otros no usen.',
    );
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
          // The browser's own time zone becomes the account's.
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
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

  it('a handle already taken (409) is said on the handle', async () => {
    serve((method, path) => {
      if (path === '/api/auth/session') return unauthorized();
      if (path === '/api/auth/setup' && method === 'GET') return json({ needed: true });
      if (path === '/api/auth/setup' && method === 'POST')
        return json({ statusCode: 409, code: 'CONFLICT', message: "the slug 'acme' is taken" }, 409);
      return undefined;
    });
    await open('/studio/setup');
    await fillSetup();
    await click('Crear cuenta');
    await vi.waitFor(() => {
      expect(errorOf(fieldLabelled('Identificador'))).toBe('Este identificador ya está en uso. Elige otro.');
    });
    expect(alertText()).toBeNull();
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
      expect(page().querySelector('h1')?.textContent).toBe('Entrar');
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
  settings: { whatsappLandingButtonBgColor: null, contactEmail: null, timeZone: 'America/Bogota' },
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
      settings: {
        contactEmail: 'hola@acme.com',
        whatsappLandingButtonBgColor: null,
        timeZone: 'America/Bogota',
      },
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
