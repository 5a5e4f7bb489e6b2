import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { BASE_DOMAINS, newAccount, newFunnel, useServices } from '../../../test/fixtures';
import type { FunnelRepo } from '../funnels/funnel.repo';
import { createRepos } from '../../services';
import { createVisitorPagesService } from './visitor-pages.service';

/**
 * Page resolution keeps funnels' parsed content by funnel id and content version, within a byte budget
 * (CONTENT_CACHE_BYTES, issue 16): a funnel read again unchanged is not read from the database again,
 * a changed one is, and however much owners store, what is kept stays within the budget.
 */
describe.each(TEST_DIALECTS)('the content cache of page resolution on %s', (dialect) => {
  const t = useServices(dialect);

  /** A site service over the real repositories, counting the reads of funnels' content. */
  function countingSite(cacheBytes?: number) {
    const reads: string[] = [];
    const repos = createRepos(t.database);
    const funnels: FunnelRepo = {
      ...repos.funnels,
      findById: (id) => {
        reads.push(id);
        return repos.funnels.findById(id);
      },
    };
    const site = createVisitorPagesService({
      ...repos,
      domains: t.services.domains,
      progress: t.services.progress,
      funnels,
      secret: t.services.secret,
      baseDomains: BASE_DOMAINS,
      ...(cacheBytes === undefined ? {} : { cacheBytes }),
    });
    return { site, reads };
  }

  /** A funnel of `pages` pages whose headlines are `chars` characters each, with a lead. */
  async function funnelWithLead(pages: number, chars: number) {
    const owner = await newAccount(t.services);
    const { funnel, pages: made } = await newFunnel(t.services, owner, {
      pages: Array.from({ length: pages }, (_, i) => ({ headline: `${i}${'中'.repeat(chars)}` })),
    });
    const { token } = await t.services.leads.create(owner, funnel.id, { name: 'Ana' });
    return {
      owner,
      funnel,
      pages: made,
      lookup: { host: 'localhost', type: 'BASE' as const, slug: owner.slug, token },
    };
  }

  it('reads an unchanged funnel once, and again after any change to it or its pages', async () => {
    const { site, reads } = countingSite();
    const { owner, funnel, pages, lookup } = await funnelWithLead(3, 100);
    for (let i = 0; i < 3; i += 1) expect((await site.resolve(lookup)).message).toBe('PAGE_FOUNDED');
    expect(reads).toHaveLength(1);

    await t.services.pages.update(owner, pages[0]?.id ?? '', { headline: 'Cambiado' });
    expect((await site.resolve(lookup)).data?.headline).toBe('Cambiado');
    await site.resolve(lookup);
    expect(reads).toHaveLength(2);

    await t.services.funnels.update(owner, funnel.id, { language: 'en' });
    expect((await site.resolve(lookup)).data?.language).toBe('en');
    expect(reads).toHaveLength(3);
  });

  it('a preview uses the same kept content as the lead’s views', async () => {
    const { site, reads } = countingSite();
    const { owner, pages, lookup } = await funnelWithLead(2, 10);
    await site.resolve(lookup);
    const { token } = await t.services.previews.create(owner, pages[0]?.id ?? '');
    const preview = await site.resolvePreview({ host: 'localhost', token });
    expect(preview.data?.idPage).toBe(pages[0]?.id);
    expect(reads).toHaveLength(1);
    await t.services.pages.update(owner, pages[0]?.id ?? '', { headline: 'Nuevo' });
    expect((await site.resolvePreview({ host: 'localhost', token })).data?.headline).toBe('Nuevo');
    expect(reads).toHaveLength(2);
  });

  it('keeps no more than its byte budget: funnels that do not fit together displace each other', async () => {
    // Each funnel: 10 pages of 2,000 CJK characters, some 80 KB as estimated (two copies, 2 bytes a
    // character). A budget of 200 KB holds one of them beside the accounts' share, not two.
    const { site, reads } = countingSite(200_000);
    const a = await funnelWithLead(10, 2000);
    const b = await funnelWithLead(10, 2000);
    await site.resolve(a.lookup);
    await site.resolve(a.lookup);
    expect(reads).toEqual([a.funnel.id]);
    await site.resolve(b.lookup);
    await site.resolve(a.lookup);
    await site.resolve(b.lookup);
    expect(reads).toEqual([a.funnel.id, b.funnel.id, a.funnel.id, b.funnel.id]);

    // With room for both, each is read once.
    const roomy = countingSite(1_000_000);
    for (const { lookup } of [a, b, a, b, a]) await roomy.site.resolve(lookup);
    expect(roomy.reads).toEqual([a.funnel.id, b.funnel.id]);
  });

  it('a funnel larger than the whole budget is served, read on every view, and never kept', async () => {
    const { site, reads } = countingSite(50_000);
    const big = await funnelWithLead(10, 2000);
    for (let i = 0; i < 3; i += 1)
      expect((await site.resolve(big.lookup)).data?.headline).toBe(`0${'中'.repeat(2000)}`);
    expect(reads).toHaveLength(3);
  });

  it('an account changed behind the service shows on the next view (its changing columns are its version)', async () => {
    const { site } = countingSite();
    const { owner, lookup } = await funnelWithLead(1, 10);
    expect((await site.resolve(lookup)).data?.contactEmail).toBeNull();
    await t.db
      .updateTable('accounts')
      .set({ settings: JSON.stringify({ lpiButtonBgColor: null, contactEmail: 'hola@example.com' }) })
      .where('id', '=', owner.id)
      .execute();
    expect((await site.resolve(lookup)).data?.contactEmail).toBe('hola@example.com');
    await t.services.accounts.setSubscription(owner.id, 'inactive');
    expect((await site.resolve(lookup)).message).toBe('INACTIVE_SUBSCRIPTION');
  });
});
