import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, useServices } from '../../../test/fixtures';

/**
 * Page resolution keeps a funnel's parsed content while the funnel's content version holds
 * (migration 0006, decision 0016). These tests change funnels and pages behind the services' back, as
 * another server instance or the CLI would, and check that the next page view shows the change.
 */
describe.each(TEST_DIALECTS)('content versions on %s', (dialect) => {
  const t = useServices(dialect);

  async function funnelWithLead() {
    const owner = await newAccount(t.services);
    const { funnel, pages } = await newFunnel(t.services, owner, {
      funnel: { language: 'es' },
      pages: [{ headline: 'Clase 1' }, { headline: 'Clase 2' }],
    });
    const { lead, token } = await t.services.leads.create(owner, funnel.id, { name: 'Ana' });
    const view = () =>
      t.services.visitorPages.resolve({ host: 'localhost', type: 'BASE', slug: owner.slug, token });
    return { owner, funnel, pages, lead, view };
  }

  const versionOf = async (funnelId: string) =>
    (
      await t.db
        .selectFrom('contentVersions')
        .select('version')
        .where('funnelId', '=', funnelId)
        .executeTakeFirst()
    )?.version;

  /** Rewrites a page's stored headline directly in the table. */
  async function setHeadline(pageId: string, headline: string) {
    const row = await t.db
      .selectFrom('pages')
      .select('content')
      .where('id', '=', pageId)
      .executeTakeFirstOrThrow();
    const content = { ...(JSON.parse(row.content) as Record<string, unknown>), headline };
    await t.db
      .updateTable('pages')
      .set({ content: JSON.stringify(content) })
      .where('id', '=', pageId)
      .execute();
  }

  it('a page changed by another writer shows on the next view', async () => {
    const { pages, view } = await funnelWithLead();
    expect((await view()).data?.headline).toBe('Clase 1');
    await setHeadline(pages[0]?.id ?? '', 'Clase 1, corregida');
    expect((await view()).data?.headline).toBe('Clase 1, corregida');
  });

  it('a funnel changed by another writer shows on the next view', async () => {
    const { funnel, view } = await funnelWithLead();
    expect((await view()).data?.language).toBe('es');
    await t.db.updateTable('funnels').set({ language: 'pt' }).where('id', '=', funnel.id).execute();
    expect((await view()).data?.language).toBe('pt');
  });

  it('pages added, reordered and deleted behind the service show on the next view', async () => {
    const { pages, lead, view } = await funnelWithLead();
    const [first, second] = pages;
    if (!first || !second) throw new Error('two pages expected');
    // The lead stands on no page of its own: it sees the funnel's first page.
    await t.db.updateTable('leads').set({ currentPageId: null }).where('id', '=', lead.id).execute();
    expect((await view()).data?.idPage).toBe(first.id);
    // Swap the two pages' places (through a free position, as positions are unique per funnel).
    await t.db.updateTable('pages').set({ position: -1 }).where('id', '=', first.id).execute();
    await t.db.updateTable('pages').set({ position: 0 }).where('id', '=', second.id).execute();
    await t.db.updateTable('pages').set({ position: 1 }).where('id', '=', first.id).execute();
    expect((await view()).data?.idPage).toBe(second.id);
    await t.db.deleteFrom('pages').where('id', '=', second.id).execute();
    expect((await view()).data?.idPage).toBe(first.id);
  });

  it('every change to a funnel or its pages moves the version; a rolled-back one does not', async () => {
    const owner = await newAccount(t.services);
    const { funnel, pages } = await newFunnel(t.services, owner, { pages: [{ headline: 'Uno' }] });
    const seen = [await versionOf(funnel.id)];
    const moved = async () => {
      const now = await versionOf(funnel.id);
      expect(now).toBeGreaterThan(seen.at(-1) ?? Number.POSITIVE_INFINITY);
      seen.push(now);
    };
    expect(seen[0]).toBeGreaterThan(0);
    await t.services.pages.create(owner, funnel.id, { headline: 'Dos' });
    await moved();
    await setHeadline(pages[0]?.id ?? '', 'Uno bis');
    await moved();
    await t.services.funnels.update(owner, funnel.id, { name: 'Renamed' });
    await moved();
    await t.services.pages.remove(owner, pages[0]?.id ?? '');
    await moved();

    const before = await versionOf(funnel.id);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.updateTable('funnels').set({ name: 'Never' }).where('id', '=', funnel.id).execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await versionOf(funnel.id)).toBe(before);
  });

  it('deleting a funnel, or its whole account, deletes its version with it', async () => {
    const owner = await newAccount(t.services);
    const kept = await newFunnel(t.services, owner, { pages: [{ headline: 'Uno' }] });
    const removed = await newFunnel(t.services, owner, { pages: [{ headline: 'Uno' }, { headline: 'Dos' }] });
    await t.db.deleteFrom('funnels').where('id', '=', removed.funnel.id).execute();
    expect(await versionOf(removed.funnel.id)).toBeUndefined();
    expect(await versionOf(kept.funnel.id)).toBeGreaterThan(0);
    await t.db.deleteFrom('accounts').where('id', '=', owner.id).execute();
    expect(await versionOf(kept.funnel.id)).toBeUndefined();
  });
});
