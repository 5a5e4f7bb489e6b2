import {
  AccountCreate,
  AccountSettings,
  type Account,
  type AccountCreated,
  type AccountUpdate,
} from '@embudo/contracts';
import { conflict, notFound } from '../../lib/http-errors';
import { hashToken, newApiKey, newId } from '../../lib/tokens';
import type { AccountRepo } from './account.repo';
import { toAccount } from './account.repo';

/** An account as the API shows it, from its row (page resolution reads rows in its own joined read). */
export { toAccount };

export interface AccountServiceDeps {
  accounts: Pick<
    AccountRepo,
    | 'findById'
    | 'findByKeyHash'
    | 'findBySlug'
    | 'insert'
    | 'insertApiKey'
    | 'list'
    | 'touchApiKey'
    | 'update'
  >;
  now?: () => number;
}

/** How often a key's last use is written down: enough for an operator, no write per request. */
const TOUCH_EVERY_MS = 60_000;

export function createAccountService({ accounts, now = Date.now }: AccountServiceDeps) {
  const lastTouched = new Map<string, number>();
  return {
    /** Creates an account and its first API key; the key is returned this once and stored hashed. */
    async create(input: AccountCreate, options: { apiKey?: string } = {}): Promise<AccountCreated> {
      const data = AccountCreate.parse(input);
      if (await accounts.findBySlug(data.slug)) throw conflict(`the slug '${data.slug}' is taken`);
      const at = now();
      const id = newId();
      const apiKey = options.apiKey ?? newApiKey();
      const settings = AccountSettings.parse(data.settings ?? {});
      const row = {
        id,
        slug: data.slug,
        name: data.name,
        subscriptionStatus: 'active',
        settings: JSON.stringify(settings),
        createdAt: at,
      };
      try {
        await accounts.insert(row, {
          id: newId(),
          accountId: id,
          keyHash: hashToken(apiKey),
          label: 'default',
          createdAt: at,
          lastUsedAt: null,
        });
      } catch (error) {
        // Two creations of one slug at once: the unique index decides, the loser hears why.
        if (await accounts.findBySlug(data.slug)) throw conflict(`the slug '${data.slug}' is taken`);
        throw error;
      }
      return { account: toAccount(row), apiKey };
    },

    /** The account a slug (lower-case) names, if any: for the operator's CLI and the demo seed. */
    async findBySlug(slug: string): Promise<Account | undefined> {
      const row = await accounts.findBySlug(slug);
      return row ? toAccount(row) : undefined;
    },

    /** Every account, oldest first: for the operator's CLI and the start-up's demo check. */
    async list(): Promise<Account[]> {
      return (await accounts.list()).map(toAccount);
    },

    /** Gives the account one more API key, stored hashed (the demo seed's derived key). */
    async addApiKey(accountId: string, apiKey: string, label: string): Promise<void> {
      await accounts.insertApiKey({
        id: newId(),
        accountId,
        keyHash: hashToken(apiKey),
        label,
        createdAt: now(),
        lastUsedAt: null,
      });
    },

    async get(id: string): Promise<Account> {
      const row = await accounts.findById(id);
      if (!row) throw notFound('account');
      return toAccount(row);
    },

    async update(id: string, patch: AccountUpdate): Promise<Account> {
      const current = await this.get(id);
      const settings = AccountSettings.parse({ ...current.settings, ...patch.settings });
      await accounts.update(id, {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        settings: JSON.stringify(settings),
      });
      return this.get(id);
    },

    async setSubscription(id: string, status: 'active' | 'inactive'): Promise<Account> {
      await accounts.update(id, { subscriptionStatus: status });
      return this.get(id);
    },

    /** The account an API key opens, or undefined for an unknown key. */
    async authenticate(apiKey: string): Promise<Account | undefined> {
      const row = await accounts.findByKeyHash(hashToken(apiKey));
      if (!row) return undefined;
      const { keyId, ...account } = row;
      const at = now();
      if (at - (lastTouched.get(keyId) ?? 0) > TOUCH_EVERY_MS) {
        lastTouched.set(keyId, at);
        void accounts.touchApiKey(keyId, at).catch(() => undefined);
      }
      return toAccount(account);
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
