import { ROUTE_PATHS } from '@embudo/contracts/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, fieldOf } from './api';

/** What the server answers: only fetch is a stand-in; the client and its error mapping are real. */
function answer(status: number, body: unknown, contentType = 'application/json') {
  const fetch = vi.fn(() =>
    Promise.resolve(
      new Response(status === 204 ? null : typeof body === 'string' ? body : JSON.stringify(body), {
        status,
        headers: { 'content-type': contentType },
      }),
    ),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

async function failureOf(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw new Error(`expected an ApiError, got ${String(error)}`);
  }
  throw new Error('expected the call to fail');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api()', () => {
  it('answers the body of a 2xx, called at the route with the session cookie', async () => {
    const fetch = answer(200, [{ id: 'a', host: 'ofertas.acme.com', createdAt: '2026-01-01T00:00:00Z' }]);
    await expect(api(ROUTE_PATHS.domains.list, {})).resolves.toEqual([
      { id: 'a', host: 'ofertas.acme.com', createdAt: '2026-01-01T00:00:00Z' },
    ]);
    expect(fetch).toHaveBeenCalledWith(
      '/api/owner/domains',
      expect.objectContaining({ method: 'GET', credentials: 'same-origin' }),
    );
  });

  it("maps a 400's issues to form fields: body.settings.contactEmail is settings.contactEmail", async () => {
    answer(400, {
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'Invalid body',
      issues: [
        { path: 'body.settings.contactEmail', message: 'Invalid email address' },
        { path: 'body.name', message: 'Too small' },
      ],
    });
    const error = await failureOf(api(ROUTE_PATHS.account.update, { body: { name: '' } }));
    expect(error.status).toBe(400);
    expect(error.kind).toBe('validation');
    expect(error.issues).toEqual([
      { field: 'settings.contactEmail', message: 'Invalid email address' },
      { field: 'name', message: 'Too small' },
    ]);
  });

  it('keeps the role a ROLE_REQUIRED 403 names', async () => {
    answer(403, {
      statusCode: 403,
      code: 'ROLE_REQUIRED',
      message: 'This needs the owner role',
      requiredRole: 'owner',
    });
    const error = await failureOf(api(ROUTE_PATHS.apiKeys.list, {}));
    expect(error.kind).toBe('role');
    expect(error.requiredRole).toBe('owner');
  });

  it('tells a 403 without a role, a 401, a 404, a 409 and a 429 apart', async () => {
    const kinds: string[] = [];
    for (const [status, code] of [
      [403, 'FORBIDDEN'],
      [401, 'UNAUTHORIZED'],
      [404, 'NOT_FOUND'],
      [409, 'CONFLICT'],
      [429, 'RATE_LIMITED'],
    ] as const) {
      answer(status, { statusCode: status, code, message: code });
      kinds.push((await failureOf(api(ROUTE_PATHS.members.list, {}))).kind);
    }
    expect(kinds).toEqual(['forbidden', 'unauthorized', 'notFound', 'conflict', 'rateLimited']);
  });

  it("keeps a 5xx's status when its body is not the API's (a proxy's HTML page)", async () => {
    answer(502, '<html>Bad gateway</html>', 'text/html');
    const error = await failureOf(api(ROUTE_PATHS.members.list, {}));
    expect(error.status).toBe(502);
    expect(error.kind).toBe('server');
    expect(error.issues).toEqual([]);
  });

  it('turns a lost connection into a network failure (status 0)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await failureOf(api(ROUTE_PATHS.auth.session, {}));
    expect(error.status).toBe(0);
    expect(error.kind).toBe('network');
  });
});

describe('a call without a body', () => {
  it('says no content type (the server refuses an empty body said to be JSON); a call with one does', async () => {
    const fetch = answer(204, '');
    await api(ROUTE_PATHS.auth.signOut, {});
    await api(ROUTE_PATHS.domains.remove, { params: { id: 'a' } });
    await api(ROUTE_PATHS.apiKeys.create, { body: { label: 'Zapier' } });
    const contentTypes = fetch.mock.calls.map((call) => {
      const init = (call as unknown as [string, RequestInit])[1];
      return new Headers(init.headers).get('content-type');
    });
    expect(contentTypes).toEqual([null, null, 'application/json']);
  });
});

describe('fieldOf', () => {
  it('drops the part of the request a path names, and only that', () => {
    expect(fieldOf('body.email')).toBe('email');
    expect(fieldOf('params.id')).toBe('id');
    expect(fieldOf('body')).toBe('');
    expect(fieldOf('bodyguard')).toBe('bodyguard');
  });
});
