import { deriveToken } from '../../lib/tokens';
import type { Services } from '../../services';

/** The demo's Studio user: who signs in to try the Studio on a fresh install (issue 18). */
export const DEMO_OWNER_EMAIL = 'owner@demo.example.com';
const DEMO_OWNER_NAME = 'Demo owner';

export interface DemoStudio {
  /** `${PUBLIC_URL}/studio` */
  url: string;
  email: string;
  /** Derived from the instance secret; null once the owner changed it in the Studio. */
  password: string | null;
}

/**
 * Creates the demo owner, a member with the owner role of the demo account, and returns how to sign
 * in. Idempotent: the password is derived from the instance secret (decision 2's derived tokens), so it
 * is the same at every start; a password the owner has since changed is kept, and not printed.
 */
export async function seedDemoOwner(
  services: Pick<Services, 'secret' | 'links' | 'accounts' | 'users' | 'members'>,
  accountSlug: string,
): Promise<DemoStudio> {
  const account = await services.accounts.findBySlug(accountSlug);
  if (!account) throw new Error(`no ${accountSlug} account to give an owner`);
  const password = deriveToken(services.secret, 'demo:studio-owner:password');
  let user = await services.users.findByEmail(DEMO_OWNER_EMAIL);
  let current = true;
  if (!user) {
    user = await services.users.create({ email: DEMO_OWNER_EMAIL, name: DEMO_OWNER_NAME, password });
  } else {
    current = (await services.users.checkPassword(DEMO_OWNER_EMAIL, password)) !== undefined;
  }
  await services.members.add(user.id, account.id, 'owner');
  return { url: services.links.studioUrl, email: DEMO_OWNER_EMAIL, password: current ? password : null };
}

/** The Studio's sign-in as a person reads it in a terminal, after the demo's links. */
export function formatDemoStudio(studio: DemoStudio): string[] {
  return [
    '',
    `Studio: ${studio.url}`,
    `  e-mail:   ${studio.email}`,
    studio.password === null
      ? `  password: changed in the Studio (npm run embudo -- user reset-password --email ${studio.email})`
      : `  password: ${studio.password}`,
  ];
}
