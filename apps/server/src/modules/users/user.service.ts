import { Language, type User } from '@embudo/contracts';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { newId } from '../../lib/tokens';
import { isCommonPassword } from './common-passwords';
import { CURRENT_PARAMS, createPasswordHasher, type PasswordHasher } from './password';
import type { UserRepo, UserRow } from './user.repo';

export interface UserServiceDeps {
  users: Pick<
    UserRepo,
    'any' | 'claimFirstRun' | 'findByEmail' | 'findById' | 'insert' | 'releaseFirstRun' | 'update'
  >;
  passwords?: PasswordHasher;
  now?: () => number;
}

export interface NewUser {
  email: string;
  name: string;
  password: string;
  language?: Language | null;
}

export const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  language: row.language === null ? null : Language.parse(row.language),
});

/**
 * What a sign-in with an unknown e-mail checks the password against: the current parameters and a
 * hash no password gives, so that it costs one scrypt run, as a known e-mail does (decision 21).
 */
const NOBODY = {
  passwordHash: Buffer.alloc(CURRENT_PARAMS.keylen).toString('base64'),
  passwordParams: JSON.stringify({ ...CURRENT_PARAMS, salt: Buffer.alloc(16).toString('base64') }),
};

/** The field a refused new password is named by: `password` when creating, `newPassword` changing. */
function checkNewPassword(password: string, field: 'body.password' | 'body.newPassword'): void {
  if (isCommonPassword(password)) {
    const message = 'this password is too common: choose one that others do not use';
    throw badRequest(message, [{ path: field, message }]);
  }
}

const normalEmail = (email: string) => email.trim().toLowerCase();

export function createUserService({
  users,
  passwords = createPasswordHasher(),
  now = Date.now,
}: UserServiceDeps) {
  return {
    /** 400 naming the field when a new password is too common (length is the contract's rule). */
    validateNewPassword: checkNewPassword,

    /** Whether any user exists. */
    anyUser: () => users.any(),
    /** The first run, claimed once (race-safe) and given back if it fails. */
    firstRun: { claim: () => users.claimFirstRun(now()), release: () => users.releaseFirstRun() },

    async get(id: string): Promise<User> {
      const row = await users.findById(id);
      if (!row) throw notFound('user');
      return toUser(row);
    },

    async findByEmail(email: string): Promise<User | undefined> {
      const row = await users.findByEmail(normalEmail(email));
      return row ? toUser(row) : undefined;
    },

    /** A new user; 400 for a common password, 409 when the e-mail already has a user. */
    async create(
      input: NewUser,
      field: 'body.password' | 'body.newPassword' = 'body.password',
    ): Promise<User> {
      checkNewPassword(input.password, field);
      const email = normalEmail(input.email);
      if (await users.findByEmail(email)) throw conflict(`a user with the e-mail ${email} already exists`);
      const at = now();
      const row: UserRow = {
        id: newId(),
        email,
        name: input.name,
        ...(await passwords.hash(input.password)),
        language: input.language ?? null,
        createdAt: at,
        updatedAt: at,
      };
      try {
        await users.insert(row);
      } catch (error) {
        // Two creations of one e-mail at once: the unique index decides.
        if (await users.findByEmail(email)) throw conflict(`a user with the e-mail ${email} already exists`);
        throw error;
      }
      return toUser(row);
    },

    /**
     * The user whose e-mail and password these are, or undefined. An unknown e-mail costs one scrypt
     * run like a known one, so the time taken does not tell which e-mails have users. A hash made with
     * parameters below the current ones is remade while the password is at hand.
     */
    async checkPassword(email: string, password: string): Promise<User | undefined> {
      const row = await users.findByEmail(normalEmail(email));
      const { ok, outdated } = await passwords.verify(password, row ?? NOBODY);
      if (!row || !ok) return undefined;
      if (outdated) await users.update(row.id, { ...(await passwords.hash(password)), updatedAt: now() });
      return toUser(row);
    },

    /** Changes a user's password after checking the current one (400 naming the field otherwise). */
    async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<void> {
      const row = await users.findById(userId);
      if (!row) throw notFound('user');
      if (!(await passwords.verify(currentPassword, row)).ok) {
        const message = 'this is not your current password';
        throw badRequest(`body.currentPassword: ${message}`, [{ path: 'body.currentPassword', message }]);
      }
      checkNewPassword(newPassword, 'body.newPassword');
      await users.update(userId, { ...(await passwords.hash(newPassword)), updatedAt: now() });
    },

    /** The operator's reset (CLI): sets a password without the current one. */
    async setPassword(userId: string, password: string): Promise<void> {
      checkNewPassword(password, 'body.password');
      await users.update(userId, { ...(await passwords.hash(password)), updatedAt: now() });
    },

    async updateProfile(
      userId: string,
      patch: { name?: string | undefined; language?: Language | null | undefined },
    ): Promise<User> {
      await users.update(userId, {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.language !== undefined ? { language: patch.language } : {}),
        updatedAt: now(),
      });
      return this.get(userId);
    },
  };
}
export type UserService = ReturnType<typeof createUserService>;
