import { PREVIEW_DEFAULT_TTL_MINUTES, type Account, type PreviewCreated } from '@embudo/contracts';
import { toIso } from '../../lib/json';
import { deriveToken, hashToken, newId, newToken } from '../../lib/tokens';
import type { PageRepo } from '../pages/page.repo';
import type { PageService } from '../pages/page.service';
import type { PreviewRepo } from './preview.repo';

/**
 * The preview token of the page after the one `token` opens. Derived, not stored in clear: resolving
 * a preview only reads (a preview never writes), yet every page of the chain has its own token.
 */
export function nextPreviewToken(secret: string, token: string): string {
  return deriveToken(secret, `preview-next:${token}`);
}

export interface PreviewServiceDeps {
  previews: Pick<PreviewRepo, 'upsertMany'>;
  pages: Pick<PageRepo, 'listByFunnel'>;
  pageService: Pick<PageService, 'load'>;
  secret: string;
  previewUrl: (accountSlug: string, token: string) => string;
  now?: () => number;
}

export function createPreviewService({
  previews,
  pages,
  pageService,
  secret,
  previewUrl,
  now = Date.now,
}: PreviewServiceDeps) {
  return {
    /**
     * A preview link for a page, with tokens for it and every later page of its funnel, all expiring
     * together. `token` lets an idempotent caller (the demo) choose a derived first token.
     */
    async create(
      owner: Pick<Account, 'id' | 'slug'>,
      pageId: string,
      options: { ttlMinutes?: number | undefined; token?: string } = {},
    ): Promise<PreviewCreated> {
      const page = await pageService.load(owner, pageId);
      const chain = (await pages.listByFunnel(page.funnelId)).filter((p) => p.position >= page.position);
      const at = now();
      const expiresAt = at + (options.ttlMinutes ?? PREVIEW_DEFAULT_TTL_MINUTES) * 60_000;
      const first = options.token ?? newToken();
      let token = first;
      const rows = chain.map((p) => {
        const row = {
          id: newId(),
          tokenHash: hashToken(token),
          accountId: owner.id,
          funnelId: page.funnelId,
          pageId: p.id,
          expiresAt,
          createdAt: at,
        };
        token = nextPreviewToken(secret, token);
        return row;
      });
      await previews.upsertMany(rows);
      return { pageId, token: first, url: previewUrl(owner.slug, first), expiresAt: toIso(expiresAt) };
    },
  };
}
export type PreviewService = ReturnType<typeof createPreviewService>;
