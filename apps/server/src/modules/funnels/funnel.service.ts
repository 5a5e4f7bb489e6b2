import {
  FUNNEL_DEFAULTS,
  OWNER_LIMIT_DEFAULTS,
  FunnelSettings,
  PixelSettingsInput,
  type Account,
  type Funnel,
  type FunnelCreate,
  type FunnelDuplicate,
  type FunnelUpdate,
  type Language,
} from '@embudo/contracts';
import type { z } from 'zod';
import { conflict } from '../../lib/http-errors';
import { readJson, toIso } from '../../lib/json';
import { newId } from '../../lib/tokens';
import { requireOwned } from '../auth/permissions';
import type { FunnelRepo, FunnelRow } from './funnel.repo';

const StoredSettings = FunnelSettings.omit({ name: true, typeFunnel: true, language: true });
type StoredSettings = z.infer<typeof StoredSettings>;
const StoredPixel = PixelSettingsInput;
type StoredPixel = z.infer<typeof StoredPixel>;
/** The longest funnel name (the contracts' Name). */
const NAME_MAX = 120;
const NO_PIXEL: StoredPixel = { pixelId: null, accessToken: null, testEventCode: null };

/** A funnel as the rest of the server reads it: settings parsed, the pixel's secret included. */
export interface FunnelRecord extends FunnelSettings {
  id: string;
  accountId: string;
  pixel: StoredPixel;
  pageCount: number;
  createdAt: number;
  updatedAt: number;
}

export function toFunnelRecord(row: FunnelRow & { pageCount?: number | string | null }): FunnelRecord {
  const settings = readJson(StoredSettings, row.settings);
  return {
    id: row.id,
    accountId: row.accountId,
    name: row.name,
    typeFunnel: FunnelSettings.shape.typeFunnel.parse(row.typeFunnel),
    language: FunnelSettings.shape.language.parse(row.language),
    ...settings,
    pixel: readJson(StoredPixel, row.pixel),
    pageCount: Number(row.pageCount ?? 0),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The owner's view: the pixel's access token is write-only. */
export function toFunnel(record: FunnelRecord, leadCount: number): Funnel {
  const { accountId: _accountId, pixel, createdAt, updatedAt, ...rest } = record;
  return {
    ...rest,
    leadCount,
    pixel: {
      pixelId: pixel.pixelId,
      hasAccessToken: pixel.accessToken !== null,
      testEventCode: pixel.testEventCode,
    },
    createdAt: toIso(createdAt),
    updatedAt: toIso(updatedAt),
  };
}

const COPY: Record<Language, string> = { es: 'copia', pt: 'cópia', en: 'copy' };

/** "<name> (copy)" in the funnel's language, within the longest name allowed. */
function copyName(name: string, language: Language): string {
  const suffix = ` (${COPY[language]})`;
  return name.slice(0, NAME_MAX - suffix.length).trimEnd() + suffix;
}

function storedSettings(settings: FunnelSettings): string {
  const { name: _n, typeFunnel: _t, language: _l, ...rest } = settings;
  return JSON.stringify(StoredSettings.parse(rest));
}

export interface FunnelServiceDeps {
  funnels: Pick<
    FunnelRepo,
    | 'delete'
    | 'findById'
    | 'findByName'
    | 'findOwner'
    | 'findWithCounts'
    | 'insert'
    | 'insertCopy'
    | 'listByAccount'
    | 'update'
  >;
  /** How many funnels an account may have (MAX_FUNNELS_PER_ACCOUNT). */
  limits?: { funnelsPerAccount: number };
  now?: () => number;
}

export function createFunnelService({
  funnels,
  limits = OWNER_LIMIT_DEFAULTS,
  now = Date.now,
}: FunnelServiceDeps) {
  async function load(owner: Pick<Account, 'id'>, id: string): Promise<FunnelRecord> {
    const row = await funnels.findById(id);
    return requireOwned(owner, row ? toFunnelRecord(row) : undefined, 'funnel');
  }

  /** 404 unless the funnel is the owner's: for reads of its leads, which need nothing else of it. */
  async function requireFunnel(owner: Pick<Account, 'id'>, id: string): Promise<void> {
    requireOwned(owner, await funnels.findOwner(id), 'funnel');
  }

  /** The owner's view of the funnel, with its number of leads. */
  async function view(owner: Pick<Account, 'id'>, id: string): Promise<Funnel> {
    const row = await funnels.findWithCounts(id);
    const record = requireOwned(owner, row ? toFunnelRecord(row) : undefined, 'funnel');
    return toFunnel(record, Number(row?.leadCount ?? 0));
  }

  const refuseBeyondLimit = (existing: number) => {
    if (existing >= limits.funnelsPerAccount) {
      throw conflict(`an account has at most ${limits.funnelsPerAccount} funnels (MAX_FUNNELS_PER_ACCOUNT)`);
    }
  };

  return {
    load,
    requireFunnel,
    limits,

    get: view,

    /** The owner's funnel of that name, if any (the demo seed creates each once). */
    async findByName(owner: Pick<Account, 'id'>, name: string): Promise<FunnelRecord | undefined> {
      const row = await funnels.findByName(owner.id, name);
      return row ? toFunnelRecord(row) : undefined;
    },

    async list(owner: Pick<Account, 'id'>): Promise<Funnel[]> {
      const rows = await funnels.listByAccount(owner.id);
      return rows.map((row) => toFunnel(toFunnelRecord(row), Number(row.leadCount ?? 0)));
    },

    async create(owner: Pick<Account, 'id'>, input: FunnelCreate): Promise<Funnel> {
      const settings: FunnelSettings = {
        ...FUNNEL_DEFAULTS,
        ...input,
        fomo: { ...FUNNEL_DEFAULTS.fomo, ...input.fomo },
        expiredPage: { ...FUNNEL_DEFAULTS.expiredPage, ...input.expiredPage },
      };
      const pixel: StoredPixel = { ...NO_PIXEL, ...input.pixel };
      const at = now();
      const id = newId();
      await funnels.insert(
        {
          id,
          accountId: owner.id,
          name: settings.name,
          typeFunnel: settings.typeFunnel,
          language: settings.language,
          settings: storedSettings(settings),
          pixel: JSON.stringify(pixel),
          createdAt: at,
          updatedAt: at,
        },
        refuseBeyondLimit,
      );
      return view(owner, id);
    },

    /**
     * A copy of the funnel with its settings and pages, named `name` or the source's name with
     * "(copy)" in the funnel's language. Its leads and their events are not copied, nor the pixel's
     * access token (a secret the owner gives again where it is wanted); the pixel id and test code are.
     */
    async duplicate(owner: Pick<Account, 'id'>, id: string, input: FunnelDuplicate): Promise<Funnel> {
      const source = await load(owner, id);
      const name = input?.name ?? copyName(source.name, source.language);
      const at = now();
      const copyId = newId();
      const { pixel, ...settings } = source;
      await funnels.insertCopy(
        {
          id: copyId,
          accountId: owner.id,
          name,
          typeFunnel: settings.typeFunnel,
          language: settings.language,
          settings: storedSettings({ ...settings, name }),
          pixel: JSON.stringify({ ...pixel, accessToken: null } satisfies StoredPixel),
          createdAt: at,
          updatedAt: at,
        },
        id,
        newId,
        refuseBeyondLimit,
      );
      return view(owner, copyId);
    },

    async update(owner: Pick<Account, 'id'>, id: string, patch: FunnelUpdate): Promise<Funnel> {
      const current = await load(owner, id);
      const settings: FunnelSettings = {
        ...current,
        ...patch,
        fomo: { ...current.fomo, ...patch.fomo },
        expiredPage: { ...current.expiredPage, ...patch.expiredPage },
      };
      const pixel: StoredPixel = { ...current.pixel, ...patch.pixel };
      await funnels.update(id, {
        name: settings.name,
        typeFunnel: settings.typeFunnel,
        language: settings.language,
        settings: storedSettings(settings),
        pixel: JSON.stringify(pixel),
        updatedAt: now(),
      });
      return view(owner, id);
    },

    async remove(owner: Pick<Account, 'id'>, id: string): Promise<void> {
      await load(owner, id);
      await funnels.delete(id);
    },
  };
}
export type FunnelService = ReturnType<typeof createFunnelService>;
