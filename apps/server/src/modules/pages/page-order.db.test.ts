import type { Account, Page } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, rowCounts, useServices } from '../../../test/fixtures';
import { HttpError } from '../../lib/http-errors';
import { createPageRepo } from './page.repo';
import { createPageService } from './page.service';

/** The Studio's pages list (issue 18): reordering a funnel's pages, and copying a page. */
describe.each(TEST_DIALECTS)('page order and copies on %s', (dialect) => {
  const t = useServices(dialect);

  async function funnelWith(headlines: string[]) {
    const owner = await newAccount(t.services);
    const { funnel, pages } = await newFunnel(t.services, owner, {
      pages: headlines.map((headline) => ({ headline })),
    });
    return { owner, funnelId: funnel.id, pages };
  }

  const order = async (owner: Account, funnelId: string) =>
    (await t.services.pages.list(owner, funnelId)).map((p) => [p.position, p.headline]);

  const ids = (pages: Page[], ...at: number[]) => at.map((i) => pages[i]?.id ?? '');

  it('puts the pages in the order given and answers them in it', async () => {
    const { owner, funnelId, pages } = await funnelWith(['A', 'B', 'C', 'D']);
    const answered = await t.services.pages.reorder(owner, funnelId, { pageIds: ids(pages, 2, 0, 3, 1) });
    expect(answered.map((p) => [p.position, p.headline])).toEqual([
      [0, 'C'],
      [1, 'A'],
      [2, 'D'],
      [3, 'B'],
    ]);
    expect(await order(owner, funnelId)).toEqual(answered.map((p) => [p.position, p.headline]));
  });

  it('a lead whose current page moved keeps its current page', async () => {
    const { owner, funnelId, pages } = await funnelWith(['A', 'B', 'C']);
    const { lead } = await t.services.leads.create(owner, funnelId, { name: 'Ana' });
    expect(lead.currentPageId).toBe(pages[0]?.id);
    await t.services.pages.reorder(owner, funnelId, { pageIds: ids(pages, 1, 2, 0) });
    expect((await t.services.leads.get(owner, lead.id)).currentPageId).toBe(pages[0]?.id);
  });

  it.each([
    ['a page missing', [0, 1], 'missing'],
    ['a page twice', [0, 1, 2, 2], 'more than once'],
    ['a page of another funnel', [0, 1, 2, -1], 'not a page of this funnel'],
  ])('an order with %s is a 400 naming the problem, and nothing moves', async (_, at, says) => {
    const { owner, funnelId, pages } = await funnelWith(['A', 'B', 'C']);
    const other = await funnelWith(['X']);
    const pageIds = at.map((i) => (i === -1 ? (other.pages[0]?.id ?? '') : (pages[i]?.id ?? '')));
    const error: unknown = await t.services.pages
      .reorder(owner, funnelId, { pageIds })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 400 });
    expect((error as HttpError).message).toContain(says);
    expect(await order(owner, funnelId)).toEqual([
      [0, 'A'],
      [1, 'B'],
      [2, 'C'],
    ]);
  });

  it("another account's funnel is a 404", async () => {
    const { funnelId, pages } = await funnelWith(['A', 'B']);
    const stranger = await newAccount(t.services);
    await expect(
      t.services.pages.reorder(stranger, funnelId, { pageIds: ids(pages, 1, 0) }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });

  it('inserts a copy right after the original, the later pages moving one down', async () => {
    const { owner, funnelId, pages } = await funnelWith(['A', 'B', 'C']);
    const copy = await t.services.pages.duplicate(owner, pages[1]?.id ?? '');
    expect(copy.id).not.toBe(pages[1]?.id);
    expect(copy.position).toBe(2);
    const { id: _a, createdAt: _b, updatedAt: _c, position: _d, ...content } = copy;
    const original = pages[1];
    if (!original) throw new Error('page missing');
    const { id: _e, createdAt: _f, updatedAt: _g, position: _h, ...originalContent } = original;
    expect(content).toEqual(originalContent);
    expect(await order(owner, funnelId)).toEqual([
      [0, 'A'],
      [1, 'B'],
      [2, 'B'],
      [3, 'C'],
    ]);
    await t.services.pages.duplicate(owner, pages[2]?.id ?? '');
    expect((await order(owner, funnelId)).map(([, h]) => h)).toEqual(['A', 'B', 'B', 'C', 'C']);
  });

  it('a copy beyond the pages-per-funnel or the content limit is refused and writes nothing', async () => {
    const { owner, pages } = await funnelWith(['A'.repeat(40), 'B']);
    const limited = (limits: { pagesPerFunnel: number; funnelContentChars: number }) =>
      createPageService({
        pages: createPageRepo(t.db, dialect),
        funnels: t.services.funnels,
        limits: { richTextChars: 20_000, ...limits },
      });
    const before = await rowCounts(t.db);
    await expect(
      limited({ pagesPerFunnel: 2, funnelContentChars: 100_000 }).duplicate(owner, pages[1]?.id ?? ''),
    ).rejects.toMatchObject({ statusCode: 409 });
    await expect(
      limited({ pagesPerFunnel: 10, funnelContentChars: 60 }).duplicate(owner, pages[0]?.id ?? ''),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect(await rowCounts(t.db)).toEqual(before);
    const stranger = await newAccount(t.services);
    await expect(t.services.pages.duplicate(stranger, pages[0]?.id ?? '')).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});
