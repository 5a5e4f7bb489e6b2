import {
  OWNER_LIMIT_DEFAULTS,
  PAGE_DEFAULTS,
  PageContent,
  RICH_TEXT_FIELDS,
  embedUrl,
  type Account,
  type Page,
  type PageCreate,
  type PageOrder,
  type PageUpdate,
} from '@embudo/contracts';
import { badRequest, conflict } from '../../lib/http-errors';
import { readJson, toIso } from '../../lib/json';
import { sanitizeRichText } from '../../lib/sanitize';
import { newId } from '../../lib/tokens';
import { requireOwned } from '../auth/permissions';
import type { FunnelService } from '../funnels/funnel.service';
import { PAGE_TEXT_FIELDS, type PageRepo, type PageRow, type PageSaveGuard } from './page.repo';

/** Stored content: everything but the two columns the server's rules read. */
const StoredContent = PageContent.omit({ layout: true, buttonAction: true });

export interface PageRecord extends PageContent {
  id: string;
  funnelId: string;
  accountId: string;
  position: number;
  createdAt: number;
  updatedAt: number;
}

export function toPageRecord(row: PageRow & { accountId: string }): PageRecord {
  return {
    id: row.id,
    funnelId: row.funnelId,
    accountId: row.accountId,
    position: row.position,
    layout: PageContent.shape.layout.parse(row.layout),
    buttonAction: PageContent.shape.buttonAction.parse(row.buttonAction),
    ...readJson(StoredContent, row.content),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toPage(record: PageRecord): Page {
  const { accountId: _a, createdAt, updatedAt, ...rest } = record;
  return { ...rest, createdAt: toIso(createdAt), updatedAt: toIso(updatedAt) };
}

/** What a page may hold and how many a funnel may have (config.ts, OWNER_LIMIT_DEFAULTS). */
export interface PageLimits {
  pagesPerFunnel: number;
  /** Characters of one rich-text field, once sanitised. */
  richTextChars: number;
  /** Characters of free text of all of a funnel's pages together (pageTextChars). */
  funnelContentChars: number;
}

/** Fails to compile when a field the funnel's content limit counts is not a page field. */
const _textFields: readonly (keyof PageContent)[] = PAGE_TEXT_FIELDS;

/** The characters of a page's free text (PAGE_TEXT_FIELDS), which a funnel's content limit counts. */
export function pageTextChars(content: Partial<Record<(typeof PAGE_TEXT_FIELDS)[number], unknown>>): number {
  let chars = 0;
  for (const field of PAGE_TEXT_FIELDS) {
    const value = content[field];
    if (typeof value === 'string') chars += value.length;
  }
  return chars;
}

/**
 * Rich text is sanitised when saved: the stored HTML is the authority (architecture §5.8). Escaping can
 * lengthen text (& becomes &amp;): the limit holds for what is stored.
 */
function sanitized<T extends Partial<PageContent>>(content: T, maxChars: number): T {
  const out = { ...content };
  for (const field of RICH_TEXT_FIELDS) {
    const value = out[field];
    if (typeof value !== 'string') continue;
    const clean = sanitizeRichText(value);
    if (clean.length > maxChars) {
      const message =
        `${field} is ${clean.length} characters once sanitised; a rich-text field holds at most ` +
        `${maxChars} characters (MAX_RICH_TEXT_CHARS)`;
      throw badRequest(message, [{ path: `body.${field}`, message }]);
    }
    out[field] = clean;
  }
  return out;
}

function contentColumn(content: PageContent): string {
  const { layout: _l, buttonAction: _b, ...rest } = content;
  return JSON.stringify(StoredContent.parse(rest));
}

/** Refuses an order that is not the funnel's pages each once, naming what is wrong. */
function refuseOrder(pageIds: string[], current: string[]): void {
  const refuse = (message: string) => {
    throw badRequest(message, [{ path: 'body.pageIds', message }]);
  };
  const seen = new Set<string>();
  for (const id of pageIds) {
    if (seen.has(id)) refuse(`page ${id} is given more than once`);
    seen.add(id);
  }
  const known = new Set(current);
  const foreign = pageIds.filter((id) => !known.has(id));
  if (foreign.length > 0) refuse(`${foreign.join(', ')} is not a page of this funnel`);
  const missing = current.filter((id) => !seen.has(id));
  if (missing.length > 0) {
    refuse(`the order must list every page of the funnel; missing: ${missing.join(', ')}`);
  }
}

export interface PageServiceDeps {
  pages: Pick<
    PageRepo,
    'append' | 'delete' | 'findById' | 'insertAfter' | 'listByFunnel' | 'reorder' | 'update'
  >;
  funnels: Pick<FunnelService, 'load'>;
  limits?: PageLimits;
  /** Whether a host is one this server serves pages on (a base domain, or any account's domain). */
  isServedHost?: (host: string) => Promise<boolean>;
  now?: () => number;
}

export function createPageService({
  pages,
  funnels,
  limits = OWNER_LIMIT_DEFAULTS,
  isServedHost = () => Promise.resolve(false),
  now = Date.now,
}: PageServiceDeps) {
  /**
   * An embedded player may not be one of this server's own pages: framed on the same origin as the
   * lead's page, its sandbox (allow-scripts allow-same-origin) would hold nothing back.
   */
  async function refuseOwnEmbed(content: Pick<PageContent, 'hostingVideo' | 'videoUrl'>): Promise<void> {
    if (content.hostingVideo !== 'EMBED') return;
    const url = embedUrl(content.videoUrl);
    if (url && (await isServedHost(url.hostname.toLowerCase()))) {
      throw badRequest(`an embedded video may not be a page of this server (${url.hostname})`, [
        { path: 'body.videoUrl', message: 'an embedded video may not be a page of this server' },
      ]);
    }
  }

  /**
   * The funnel's limits for a page whose free text will be `chars` characters (and was `before`,
   * or null for a new page), checked against the funnel's other pages as the save's transaction sees
   * them. A save that does not add to a funnel already past its content limit (one the operator
   * lowered) still passes.
   */
  const funnelLimits =
    (chars: number, before: number | null): PageSaveGuard =>
    (others) => {
      if (before === null && others.count >= limits.pagesPerFunnel) {
        throw conflict(`a funnel has at most ${limits.pagesPerFunnel} pages (MAX_PAGES_PER_FUNNEL)`);
      }
      if (chars <= (before ?? 0)) return;
      const total = others.textChars + chars;
      if (total > limits.funnelContentChars) {
        const message =
          `a funnel's pages hold at most ${limits.funnelContentChars} characters of text in all ` +
          `(MAX_FUNNEL_CONTENT_CHARS); with this page they would hold ${total}`;
        throw badRequest(message, [{ path: 'body', message }]);
      }
    };

  async function load(owner: Pick<Account, 'id'>, id: string): Promise<PageRecord> {
    const row = await pages.findById(id);
    return requireOwned(owner, row ? toPageRecord(row) : undefined, 'page');
  }

  return {
    load,
    limits,

    async get(owner: Pick<Account, 'id'>, id: string): Promise<Page> {
      return toPage(await load(owner, id));
    },

    async list(owner: Pick<Account, 'id'>, funnelId: string): Promise<Page[]> {
      await funnels.load(owner, funnelId);
      return (await pages.listByFunnel(funnelId)).map((row) => toPage(toPageRecord(row)));
    },

    async create(owner: Pick<Account, 'id'>, funnelId: string, input: PageCreate): Promise<Page> {
      await funnels.load(owner, funnelId);
      const content: PageContent = sanitized({ ...PAGE_DEFAULTS, ...input }, limits.richTextChars);
      await refuseOwnEmbed(content);
      const at = now();
      const id = newId();
      await pages.append(
        {
          id,
          funnelId,
          layout: content.layout,
          buttonAction: content.buttonAction,
          content: contentColumn(content),
          createdAt: at,
          updatedAt: at,
        },
        funnelLimits(pageTextChars(content), null),
      );
      return toPage(await load(owner, id));
    },

    /**
     * Puts the funnel's pages in the order given: every page of the funnel, each once (else a 400
     * naming what is wrong, and nothing moves). Leads stay on the page they are on, wherever it goes.
     */
    async reorder(owner: Pick<Account, 'id'>, funnelId: string, input: PageOrder): Promise<Page[]> {
      await funnels.load(owner, funnelId);
      await pages.reorder(funnelId, input.pageIds, (current) => {
        refuseOrder(input.pageIds, current);
      });
      return (await pages.listByFunnel(funnelId)).map((row) => toPage(toPageRecord(row)));
    },

    /**
     * A copy of the page right after it, the funnel's later pages moving one down; within the
     * funnel's limits of pages and of text, as a new page.
     */
    async duplicate(owner: Pick<Account, 'id'>, id: string): Promise<Page> {
      const source = await load(owner, id);
      const at = now();
      const copyId = newId();
      await pages.insertAfter(
        {
          id: copyId,
          funnelId: source.funnelId,
          layout: source.layout,
          buttonAction: source.buttonAction,
          content: contentColumn(source),
          createdAt: at,
          updatedAt: at,
        },
        source.position,
        funnelLimits(pageTextChars(source), null),
      );
      return toPage(await load(owner, copyId));
    },

    async update(owner: Pick<Account, 'id'>, id: string, patch: PageUpdate): Promise<Page> {
      const current = await load(owner, id);
      const content: PageContent = { ...current, ...sanitized(patch, limits.richTextChars) };
      await refuseOwnEmbed(content);
      await pages.update(
        current,
        {
          layout: content.layout,
          buttonAction: content.buttonAction,
          content: contentColumn(content),
          updatedAt: now(),
        },
        funnelLimits(pageTextChars(content), pageTextChars(current)),
      );
      return toPage(await load(owner, id));
    },

    async remove(owner: Pick<Account, 'id'>, id: string): Promise<void> {
      const page = await load(owner, id);
      await pages.delete(page);
    },
  };
}
export type PageService = ReturnType<typeof createPageService>;
