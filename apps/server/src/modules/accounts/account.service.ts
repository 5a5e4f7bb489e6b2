import {
  AccountCreate,
  AccountSettings,
  type Account,
  type AccountCreated,
  type AccountUpdate,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
} from '@embudo/contracts';
import { toIso } from '../../lib/json';
import { conflict, notFound } from '../../lib/http-errors';
import { API_KEY_PREFIX, hashToken, newApiKey, newId } from '../../lib/tokens';
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
    | 'deleteApiKey'
    | 'insertApiKey'
    | 'list'
    | 'listApiKeys'
    | 'touchApiKey'
    | 'update'
  >;
  /**
   * After the account's time zone changed: its analytics days are counted in the zone, so the rollups
   * are rebuilt in the new one (decision 25).
   */
  onTimeZoneChange?: (accountId: string) => Promise<void>;
  now?: () => number;
}

/** Characters of a key kept to tell it apart: the prefix and four of its random characters. */
const SHOWN_CHARS = API_KEY_PREFIX.length + 4;

/** A key's row, for its owner: never the key, never its hash. */
function toApiKey(row: {
  id: string;
  label: string;
  prefix: string | null;
  createdAt: number;
  lastUsedAt: number | null;
}): ApiKey {
  return {
    id: row.id,
    label: row.label,
    // Keys made before migration 0009 kept no characters of their own.
    prefix: row.prefix ?? API_KEY_PREFIX,
    createdAt: toIso(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : toIso(row.lastUsedAt),
  };
}

/** How often a key's last use is written down: enough for an operator, no write per request. */
const TOUCH_EVERY_MS = 60_000;

export function createAccountService({ accounts, onTimeZoneChange, now = Date.now }: AccountServiceDeps) {
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
          prefix: apiKey.slice(0, SHOWN_CHARS),
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
        prefix: apiKey.slice(0, SHOWN_CHARS),
      });
    },

    /** The account's API keys, oldest first: labels and first characters, never the keys. */
    async listApiKeys(accountId: string): Promise<ApiKey[]> {
      return (await accounts.listApiKeys(accountId)).map(toApiKey);
    },

    /** A new API key for the account: answered this once, stored as its hash. */
    async createApiKey(accountId: string, input: ApiKeyCreate): Promise<ApiKeyCreated> {
      const key = newApiKey();
      const row = {
        id: newId(),
        accountId,
        keyHash: hashToken(key),
        label: input.label,
        createdAt: now(),
        lastUsedAt: null,
        prefix: key.slice(0, SHOWN_CHARS),
      };
      await accounts.insertApiKey(row);
      return { apiKey: toApiKey(row), key };
    },

    /**
     * Revokes the account's key: the next request with it is a 401, for it is looked up on each
     * request (authenticate). Another account's key is a 404.
     */
    async revokeApiKey(accountId: string, id: string): Promise<void> {
      if (!(await accounts.deleteApiKey(accountId, id))) throw notFound('API key');
      lastTouched.delete(id);
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
      if (settings.timeZone !== current.settings.timeZone) await onTimeZoneChange?.(id);
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
