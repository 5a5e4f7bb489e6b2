import { describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS } from '../../../test/databases';
import { BASE_DOMAINS, PUBLIC_URL } from '../../../test/fixtures';
import { createServices } from '../../services';
import { createPasswordHasher, nodeScrypt, type ScryptFn } from './password';

/**
 * An unknown e-mail costs a sign-in what a known one costs (decision 21): the same number of scrypt
 * runs with the same parameters, counted, not timed. And a hash made with parameters below the
 * current ones is remade at the next sign-in, the password still signing in.
 */
describe.each(TEST_DIALECTS)('the cost of a sign-in on %s', (dialect) => {
  it('runs scrypt once, with the same parameters, for a known e-mail, a wrong password and an unknown e-mail', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const calls: { N: number; r: number; p: number; keylen: number }[] = [];
      const counting: ScryptFn = (password, salt, keylen, options) => {
        calls.push({ N: options.N ?? 0, r: options.r ?? 0, p: options.p ?? 0, keylen });
        return nodeScrypt(password, salt, keylen, options);
      };
      const services = await createServices(database, {
        publicUrl: PUBLIC_URL,
        baseDomains: BASE_DOMAINS,
        passwords: createPasswordHasher({ scrypt: counting }),
      });
      await services.users.create({
        email: 'known@example.com',
        name: 'Known',
        password: 'correct horse battery',
      });
      const costOf = async (email: string, password: string) => {
        calls.length = 0;
        const user = await services.users.checkPassword(email, password);
        return { signedIn: user !== undefined, calls: [...calls] };
      };
      const right = await costOf('known@example.com', 'correct horse battery');
      const wrong = await costOf('known@example.com', 'not the right one');
      const unknown = await costOf('nobody@example.com', 'not the right one');
      expect(right.signedIn).toBe(true);
      expect(wrong.signedIn).toBe(false);
      expect(unknown.signedIn).toBe(false);
      expect(right.calls).toHaveLength(1);
      expect(wrong.calls).toEqual(right.calls);
      expect(unknown.calls).toEqual(right.calls);
    } finally {
      await database.close();
    }
  });

  it('remakes a hash made with lower parameters at the next sign-in', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const weak = await createServices(database, {
        publicUrl: PUBLIC_URL,
        baseDomains: BASE_DOMAINS,
        passwords: createPasswordHasher({ params: { N: 2 ** 10, r: 8, p: 1, keylen: 32 } }),
      });
      const user = await weak.users.create({
        email: 'old@example.com',
        name: 'Old',
        password: 'an old passphrase',
      });
      const strong = await createServices(database, { publicUrl: PUBLIC_URL, baseDomains: BASE_DOMAINS });
      const paramsOf = async () =>
        JSON.parse(
          (
            await database.db
              .selectFrom('users')
              .select('passwordParams')
              .where('id', '=', user.id)
              .executeTakeFirstOrThrow()
          ).passwordParams,
        ) as { N: number; p: number };
      expect(await paramsOf()).toMatchObject({ N: 2 ** 10, p: 1 });
      expect(await strong.users.checkPassword('old@example.com', 'an old passphrase')).toMatchObject({
        id: user.id,
      });
      expect(await paramsOf()).toMatchObject({ N: 2 ** 15, p: 3 });
      expect(await strong.users.checkPassword('old@example.com', 'an old passphrase')).toMatchObject({
        id: user.id,
      });
      expect(await strong.users.checkPassword('old@example.com', 'an old passphrase!')).toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
