import type { RollupIngest } from '../analytics/rollup-ingest';
import { createHash } from 'node:crypto';
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
import { searchPrefixes } from '../../lib/search-terms';
import { hashToken, newId, newToken } from '../../lib/tokens';
import { requireOwned } from '../auth/permissions';
import type { FunnelRecord, FunnelService } from '../funnels/funnel.service';
import type { LeadProgressService } from '../lead-progress/lead-progress.service';
import type { EventWriter } from '../tracking/event-writer';
import type { LeadKey, LeadRepo, LeadRow, ShownLeadRow } from './lead.repo';

export function toLead(row: ShownLeadRow): Lead {
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

/** What a page of leads is asked for; `order` is oldest first unless said. */
export interface LeadListOptions {
  cursor?: string | undefined;
  limit: number;
  search?: string | undefined;
  pageId?: string | undefined;
  order?: 'oldest' | 'newest' | undefined;
}

/**
 * A cursor names the last lead of a page and the list it belongs to: its order and a digest of its
 * search and page filter, so that it never continues another list (decision 22).
 */
const listOf = (order: string, search: string | undefined, pageId: string | undefined): string =>
  createHash('sha256')
    .update(JSON.stringify([order, search ?? null, pageId ?? null]))
    .digest('base64url')
    .slice(0, 12);

const encodeCursor = (list: string, row: LeadKey): string =>
  Buffer.from(`${list}:${row.createdAt}:${row.id}`).toString('base64url');

function invalidCursor(message: string) {
  return badRequest(`invalid cursor: ${message}`, [{ path: 'querystring.cursor', message }]);
}

function decodeCursor(cursor: string, list: string): LeadKey {
  const [of, at, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split(':');
  const createdAt = Number(at);
  if (
    rest.length > 0 ||
    of === undefined ||
    !Number.isSafeInteger(createdAt) ||
    id === undefined ||
    !Id.safeParse(id).success
  ) {
    throw invalidCursor('not a cursor this API gave out');
  }
  if (of !== list) {
    throw invalidCursor(
      'this cursor belongs to another order, search or page filter: start again without it',
    );
  }
  return { createdAt, id };
}

export interface LeadLinks {
  leadUrl(accountSlug: string, token: string): string;
}

export interface LeadServiceDeps {
  leads: Pick<
    LeadRepo,
    'insertMany' | 'findById' | 'listByFunnel' | 'update' | 'delete' | 'existingTokenHashes' | 'setTokenHash'
  >;
  progress: Pick<LeadProgressService, 'startPage'>;
  /**
   * The tracking writer: events acknowledged before an erasure are committed before it, so that none
   * of them lands after the lead is gone.
   */
  events?: Pick<EventWriter, 'drain'>;
  funnels: Pick<FunnelService, 'load' | 'requireFunnel'>;
  links: LeadLinks;
  /**
   * The analytics rollups, kept in the transaction that stores new leads (decision 25), and in the
   * one that erases a lead.
   */
  rollups?: Pick<RollupIngest, 'lock' | 'leadsStored' | 'leadErased'>;
  now?: () => number;
}

/** `token` lets an idempotent caller (the demo seed) choose a derived token instead of a random one. */
export type NewLead = LeadCreate & { token?: string };

export function createLeadService({
  leads,
  progress,
  funnels,
  links,
  events,
  rollups,
  now = Date.now,
}: LeadServiceDeps) {
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
    const rows = created.map((c) => c.row);
    if (rollups)
      await rollups.lock.run(() => leads.insertMany(rows, (trx) => rollups.leadsStored(trx, rows)));
    else await leads.insertMany(rows);
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

    /**
     * A page of the funnel's leads (decision 22): found by the start of a name's word, of an e-mail or
     * of a phone's digits, or by current page; oldest or newest first; keyset paging.
     */
    async list(owner: Pick<Account, 'id'>, funnelId: string, query: LeadListOptions): Promise<LeadList> {
      await funnels.requireFunnel(owner, funnelId);
      const order = query.order ?? 'oldest';
      const list = listOf(order, query.search, query.pageId);
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, list);
      const prefixes = query.search === undefined ? undefined : searchPrefixes(query.search);
      if (prefixes?.length === 0) return { items: [], nextCursor: null };
      const rows = await leads.listByFunnel({
        funnelId,
        limit: query.limit + 1,
        order,
        after,
        prefixes,
        pageId: query.pageId,
      });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page.map(toLead),
        nextCursor: rows.length > query.limit && last ? encodeCursor(list, last) : null,
      };
    },

    /** A new link for the lead, shown only here: the old one stops working at once. */
    async newLink(owner: Pick<Account, 'id' | 'slug'>, id: string): Promise<LeadCreated> {
      const row = await load(owner, id);
      const token = newToken();
      await leads.setTokenHash(row.id, hashToken(token));
      return { lead: toLead(row), token, url: links.leadUrl(owner.slug, token) };
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

    /**
     * Erases the lead and every event recorded of it (visits, page sessions, video records, actions,
     * conversions, pixel events, progress, search terms), in one transaction, after the events already
     * acknowledged are written. Events sent later find no lead and are refused.
     */
    async remove(owner: Pick<Account, 'id'>, id: string): Promise<void> {
      await load(owner, id);
      await events?.drain();
      // What the lead added to the analytics goes with it, in the same transaction.
      if (rollups) await rollups.lock.run(() => leads.delete(id, (trx) => rollups.leadErased(trx, id)));
      else await leads.delete(id);
    },

    /** Tokens among these that already belong to a lead (the demo seed asks before creating). */
    async existing(tokens: string[]): Promise<Set<string>> {
      const hashes = await leads.existingTokenHashes(tokens.map(hashToken));
      return new Set(tokens.filter((t) => hashes.has(hashToken(t))));
    },
  };
}
export type LeadService = ReturnType<typeof createLeadService>;
