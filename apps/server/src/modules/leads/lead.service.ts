import { Id } from '@embudo/contracts';
import type {
  Account,
  Lead,
  LeadCreate,
  LeadCreated,
  LeadImported,
  LeadList,
  LeadUpdate,
} from '@embudo/contracts';
import { badRequest } from '../../lib/http-errors';
import { toIso } from '../../lib/json';
import { hashToken, newId, newToken } from '../../lib/tokens';
import { requireOwned } from '../auth/permissions';
import type { FunnelRecord, FunnelService } from '../funnels/funnel.service';
import type { LeadProgressService } from '../lead-progress/lead-progress.service';
import type { LeadRepo, LeadRow } from './lead.repo';

export function toLead(row: LeadRow): Lead {
  return {
    id: row.id,
    funnelId: row.funnelId,
    name: row.name,
    email: row.email,
    phone: row.phone,
    currentPageId: row.currentPageId,
    deadlineAt: row.deadlineAt === null ? null : toIso(row.deadlineAt),
    deadlineExceptionOn: row.deadlineExceptionOn === null ? null : row.deadlineExceptionOn === 1,
    createdAt: toIso(row.createdAt),
  };
}

/** The lead's own deadline: fixed-date funnels are read live from the funnel, so they are not stored. */
export function deadlineFor(funnel: Pick<FunnelRecord, 'deadline'>, createdAt: number): number | null {
  return funnel.deadline.mode === 'afterLeadCreated' ? createdAt + funnel.deadline.hours * 3_600_000 : null;
}

const encodeCursor = (row: Pick<LeadRow, 'createdAt' | 'id'>): string =>
  Buffer.from(`${row.createdAt}:${row.id}`).toString('base64url');
function decodeCursor(cursor: string): { createdAt: number; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split(':');
  const createdAt = Number(at);
  if (!Number.isSafeInteger(createdAt) || !Id.safeParse(id).success || id === undefined) {
    throw badRequest('invalid cursor', [
      { path: 'querystring.cursor', message: 'not a cursor this API gave out' },
    ]);
  }
  return { createdAt, id };
}

export interface LeadLinks {
  leadUrl(accountSlug: string, token: string): string;
}

export interface LeadServiceDeps {
  leads: Pick<
    LeadRepo,
    'insertMany' | 'findById' | 'listByFunnel' | 'update' | 'delete' | 'existingTokenHashes'
  >;
  progress: Pick<LeadProgressService, 'startPage'>;
  funnels: Pick<FunnelService, 'load'>;
  links: LeadLinks;
  now?: () => number;
}

/** `token` lets an idempotent caller (the demo seed) choose a derived token instead of a random one. */
export type NewLead = LeadCreate & { token?: string };

export function createLeadService({ leads, progress, funnels, links, now = Date.now }: LeadServiceDeps) {
  async function load(owner: Pick<Account, 'id'>, id: string): Promise<LeadRow> {
    return requireOwned(owner, await leads.findById(id), 'lead');
  }

  async function createMany(
    owner: Pick<Account, 'id' | 'slug'>,
    funnelId: string,
    inputs: NewLead[],
  ): Promise<LeadCreated[]> {
    const funnel = await funnels.load(owner, funnelId);
    // A new lead starts on the funnel's first page.
    const startPage = await progress.startPage(funnelId);
    const at = now();
    const created = inputs.map((input) => {
      const token = input.token ?? newToken();
      const row: LeadRow = {
        id: newId(),
        accountId: owner.id,
        funnelId,
        tokenHash: hashToken(token),
        name: input.name,
        email: input.email ?? null,
        phone: input.phone ?? null,
        currentPageId: startPage,
        deadlineAt: deadlineFor(funnel, at),
        deadlineExceptionOn: input.deadlineExceptionOn == null ? null : input.deadlineExceptionOn ? 1 : 0,
        createdAt: at,
        lastIp: null,
        lastIpAt: null,
      };
      return { row, token };
    });
    await leads.insertMany(created.map((c) => c.row));
    return created.map(({ row, token }) => ({
      lead: toLead(row),
      token,
      url: links.leadUrl(owner.slug, token),
    }));
  }

  return {
    async create(
      owner: Pick<Account, 'id' | 'slug'>,
      funnelId: string,
      input: NewLead,
    ): Promise<LeadCreated> {
      const [created] = await createMany(owner, funnelId, [input]);
      if (!created) throw new Error('lead was not created');
      return created;
    },

    async import(
      owner: Pick<Account, 'id' | 'slug'>,
      funnelId: string,
      inputs: NewLead[],
    ): Promise<LeadImported> {
      const created = await createMany(owner, funnelId, inputs);
      return { count: created.length, leads: created };
    },

    async get(owner: Pick<Account, 'id'>, id: string): Promise<Lead> {
      return toLead(await load(owner, id));
    },

    async list(
      owner: Pick<Account, 'id'>,
      funnelId: string,
      query: { cursor?: string | undefined; limit: number },
    ): Promise<LeadList> {
      await funnels.load(owner, funnelId);
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      const rows = await leads.listByFunnel(funnelId, query.limit + 1, after);
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page.map(toLead),
        nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
      };
    },

    async update(owner: Pick<Account, 'id'>, id: string, patch: LeadUpdate): Promise<Lead> {
      await load(owner, id);
      await leads.update(id, {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.email !== undefined ? { email: patch.email } : {}),
        ...(patch.phone !== undefined ? { phone: patch.phone } : {}),
        ...(patch.deadlineExceptionOn !== undefined
          ? {
              deadlineExceptionOn:
                patch.deadlineExceptionOn === null ? null : patch.deadlineExceptionOn ? 1 : 0,
            }
          : {}),
      });
      return toLead(await load(owner, id));
    },

    async remove(owner: Pick<Account, 'id'>, id: string): Promise<void> {
      await load(owner, id);
      await leads.delete(id);
    },

    /** Tokens among these that already belong to a lead (the demo seed asks before creating). */
    async existing(tokens: string[]): Promise<Set<string>> {
      const hashes = await leads.existingTokenHashes(tokens.map(hashToken));
      return new Set(tokens.filter((t) => hashes.has(hashToken(t))));
    },
  };
}
export type LeadService = ReturnType<typeof createLeadService>;
