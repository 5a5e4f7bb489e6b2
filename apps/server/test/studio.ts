import type { Account, Role } from '@embudo/contracts';
import type { Services } from '../src/services';
import { api } from './server';

/** Helpers of the Studio's tests: people, sign-in, and calls made as the Studio's pages make them. */

let people = 0;

export interface StudioPerson {
  userId: string;
  email: string;
  password: string;
}

/** A new user with a password nobody else has, member of the account with the role. */
export async function newPerson(services: Services, account: Account, role: Role): Promise<StudioPerson> {
  people += 1;
  const email = `person-${String(people)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = `long enough ${Math.random().toString(36).slice(2)}`;
  const user = await services.users.create({ email, name: `Person ${String(people)}`, password });
  await services.members.add(user.id, account.id, role);
  return { userId: user.id, email, password };
}

/** The session cookie's `name=value` from an answer's Set-Cookie, for the next request's Cookie. */
export function cookieOf(headers: Headers): string {
  const set = headers.get('set-cookie');
  const pair = set?.split(';')[0];
  if (!pair?.startsWith('embudo_session=')) throw new Error(`no session cookie set: ${String(set)}`);
  return pair;
}

/** A request as the Studio's pages send it: the cookie, and the Studio's own Origin on writes. */
export function studio(
  server: { url: string; config: { publicUrl: string } },
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown; origin?: string | null; headers?: Record<string, string> } = {},
) {
  const origin = options.origin === undefined ? new URL(server.config.publicUrl).origin : options.origin;
  return api(server, method, path, {
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(origin === null ? {} : { origin }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: options.body }),
  });
}

/** Signs in over HTTP and returns the cookie to send. */
export async function signIn(
  server: { url: string; config: { publicUrl: string } },
  person: Pick<StudioPerson, 'email' | 'password'>,
): Promise<string> {
  const answer = await studio(server, 'POST', '/api/auth/sign-in', {
    body: { email: person.email, password: person.password },
  });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${answer.text}`);
  return cookieOf(answer.headers);
}
