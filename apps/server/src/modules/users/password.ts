import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';

/**
 * Passwords are stored as scrypt hashes (decision 21), each with its own random salt and with the
 * parameters it was made with, so that the parameters can be raised later: a hash made with lower
 * ones still checks, and is replaced at the next sign-in.
 */
export const PasswordParams = z.object({
  N: z.number().int().min(2),
  r: z.number().int().min(1),
  p: z.number().int().min(1),
  keylen: z.number().int().min(16),
  /** base64 */
  salt: z.string().min(1),
});
export type PasswordParams = z.infer<typeof PasswordParams>;

/**
 * N = 2^15, r = 8, p = 3: one of OWASP's equivalent scrypt settings (32 MiB of memory per hash, not
 * 128 as N = 2^17 would take, on a server sized to 128 MB of heap), a 32-byte key, a 16-byte salt.
 */
export const CURRENT_PARAMS = { N: 2 ** 15, r: 8, p: 3, keylen: 32 } as const;
const SALT_BYTES = 16;

/** node's scrypt, promised: the one function that costs; tests count its calls. */
export type ScryptFn = (
  password: string,
  salt: Buffer,
  keylen: number,
  options: ScryptOptions,
) => Promise<Buffer>;

export const nodeScrypt: ScryptFn = (password, salt, keylen, options) =>
  new Promise((resolve, reject) => {
    scrypt(password, salt, keylen, options, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });

/** What a stored password is: the hash (base64) and its parameters (JSON text). */
export interface StoredPassword {
  passwordHash: string;
  passwordParams: string;
}

export interface PasswordHasher {
  hash(password: string): Promise<StoredPassword>;
  /** Whether the password matches, and whether its hash should be remade with the current parameters. */
  verify(password: string, stored: StoredPassword): Promise<{ ok: boolean; outdated: boolean }>;
}

/** scrypt needs 128 · N · r bytes; Node's default ceiling (32 MiB) is exactly N = 2^15, r = 8: room. */
const maxmem = (params: { N: number; r: number }) => 256 * params.N * params.r;

export function createPasswordHasher(
  options: { scrypt?: ScryptFn; params?: { N: number; r: number; p: number; keylen: number } } = {},
): PasswordHasher {
  const run = options.scrypt ?? nodeScrypt;
  const current = options.params ?? CURRENT_PARAMS;
  const derive = (password: string, params: PasswordParams) =>
    run(password, Buffer.from(params.salt, 'base64'), params.keylen, {
      N: params.N,
      r: params.r,
      p: params.p,
      maxmem: maxmem(params),
    });
  return {
    async hash(password) {
      const params: PasswordParams = { ...current, salt: randomBytes(SALT_BYTES).toString('base64') };
      const key = await derive(password, params);
      return { passwordHash: key.toString('base64'), passwordParams: JSON.stringify(params) };
    },
    async verify(password, stored) {
      const params = PasswordParams.parse(JSON.parse(stored.passwordParams));
      const expected = Buffer.from(stored.passwordHash, 'base64');
      const key = await derive(password, params);
      const ok = key.length === expected.length && timingSafeEqual(key, expected);
      const outdated =
        params.N < current.N ||
        params.r < current.r ||
        params.p < current.p ||
        params.keylen < current.keylen;
      return { ok, outdated };
    },
  };
}
