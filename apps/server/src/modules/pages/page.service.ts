import {
  PAGE_DEFAULTS,
  PageContent,
  RICH_TEXT_FIELDS,
  RICH_TEXT_MAX,
  type Account,
  type Page,
  type PageCreate,
  type PageUpdate,
} from '@embudo/contracts';
import { badRequest } from '../../lib/http-errors';
import { readJson, toIso } from '../../lib/json';
import { sanitizeRichText } from '../../lib/sanitize';
import { newId } from '../../lib/tokens';
import { requireOwned } from '../auth/permissions';
import type { FunnelService } from '../funnels/funnel.service';
import type { PageRepo, PageRow } from './page.repo';

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

/** Rich text is sanitised when saved: the stored HTML is the authority (DESIGN §5.8). */
function sanitized<T extends Partial<PageContent>>(content: T): T {
  const out = { ...content };
  for (const field of RICH_TEXT_FIELDS) {
    const value = out[field];
    if (typeof value !== 'string') continue;
    const clean = sanitizeRichText(value);
    // Escaping can lengthen text (& becomes &amp;): the limit holds for what is stored.
    if (clean.length > RICH_TEXT_MAX) {
      const message = `${field} is ${clean.length} characters once sanitised; the limit is ${RICH_TEXT_MAX}`;
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

export interface PageServiceDeps {
  pages: PageRepo;
  funnels: FunnelService;
  now?: () => number;
}

export function createPageService({ pages, funnels, now = Date.now }: PageServiceDeps) {
  async function load(owner: Pick<Account, 'id'>, id: string): Promise<PageRecord> {
    const row = await pages.findById(id);
    return requireOwned(owner, row ? toPageRecord(row) : undefined, 'page');
  }

  return {
    load,

    async get(owner: Pick<Account, 'id'>, id: string): Promise<Page> {
      return toPage(await load(owner, id));
    },

    async list(owner: Pick<Account, 'id'>, funnelId: string): Promise<Page[]> {
      await funnels.load(owner, funnelId);
      return (await pages.listByFunnel(funnelId)).map((row) => toPage(toPageRecord(row)));
    },

    async create(owner: Pick<Account, 'id'>, funnelId: string, input: PageCreate): Promise<Page> {
      await funnels.load(owner, funnelId);
      const content: PageContent = sanitized({ ...PAGE_DEFAULTS, ...input });
      const at = now();
      const id = newId();
      await pages.append({
        id,
        funnelId,
        layout: content.layout,
        buttonAction: content.buttonAction,
        content: contentColumn(content),
        createdAt: at,
        updatedAt: at,
      });
      return toPage(await load(owner, id));
    },

    async update(owner: Pick<Account, 'id'>, id: string, patch: PageUpdate): Promise<Page> {
      const current = await load(owner, id);
      const content: PageContent = { ...current, ...sanitized(patch) };
      await pages.update(id, {
        layout: content.layout,
        buttonAction: content.buttonAction,
        content: contentColumn(content),
        updatedAt: now(),
      });
      return toPage(await load(owner, id));
    },

    async remove(owner: Pick<Account, 'id'>, id: string): Promise<void> {
      const page = await load(owner, id);
      await pages.delete(page);
    },
  };
}
export type PageService = ReturnType<typeof createPageService>;
