import { PAGE_DEFAULTS, RICH_TEXT_FIELDS, type Page, type PageContent } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, useServices } from '../../../test/fixtures';

/** Every page field with a value other than its default (already in sanitised form). */
const FULL: PageContent = {
  layout: 'landing',
  buttonAction: 'OFFERT',
  topline: '<strong>Top</strong> line',
  headline: '<p>Hi <em>there</em></p>',
  subheadline: '<u>Sub</u>',
  showTopLine: true,
  showHeadLine: false,
  showSubHeadLine: true,
  topLineColor: '#111111',
  headlineColor: 'rgb(1, 2, 3)',
  subHeadlineColor: 'rgba(4, 5, 6, 0.5)',
  buttonCopy: 'Buy <strong>now</strong>',
  buttonBgColor: '#222222',
  buttonTextColor: '#333333',
  buttonTime: { hours: 1, minutes: 2, seconds: 3 },
  buttonUrl: 'https://pay.example.com/checkout?plan=1',
  isLpiOn: false,
  showFakeProgress: true,
  barProgressPercent: 37,
  barProgressTextColor: '#444444',
  bgImageUrl: 'https://cdn.example.com/bg.jpg',
  hostingVideo: 'VIMEO',
  videoId: '123456/abcdef',
  videoLibrary: 'library-1',
  videoUrl: 'https://cdn.example.com/v.m3u8',
};
const FIELDS = Object.keys(PAGE_DEFAULTS) as (keyof PageContent)[];
const NULLABLE = FIELDS.filter((field) => PAGE_DEFAULTS[field] === null);

const contentOf = (page: Page): PageContent =>
  Object.fromEntries(FIELDS.map((field) => [field, page[field]])) as PageContent;

describe.each(TEST_DIALECTS)('pages on %s', (dialect) => {
  const t = useServices(dialect);

  async function funnelWithPages(count: number) {
    const owner = await newAccount(t.services);
    const { funnel, pages } = await newFunnel(t.services, owner, {
      pages: Array.from({ length: count }, (_, i) => ({ headline: `page ${i}` })),
    });
    return { owner, funnel, pages };
  }

  /** The funnel's pages as stored: [id, position] in position order. */
  async function stored(funnelId: string): Promise<[string, number][]> {
    const rows = await t.db
      .selectFrom('pages')
      .select(['id', 'position'])
      .where('funnelId', '=', funnelId)
      .orderBy('position')
      .execute();
    return rows.map((r) => [r.id, r.position]);
  }

  it('appends pages at positions 0..n-1', async () => {
    const { owner, funnel, pages } = await funnelWithPages(4);
    expect(pages.map((p) => p.position)).toEqual([0, 1, 2, 3]);
    expect(await stored(funnel.id)).toEqual(pages.map((p, i) => [p.id, i]));
    const listed = await t.services.pages.list(owner, funnel.id);
    expect(listed.map((p) => p.headline)).toEqual(['page 0', 'page 1', 'page 2', 'page 3']);
    expect((await t.services.funnels.get(owner, funnel.id)).pageCount).toBe(4);
  });

  it('gives pages added at the same moment distinct positions 0..n-1', async () => {
    const owner = await newAccount(t.services);
    const { funnel } = await newFunnel(t.services, owner);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => t.services.pages.create(owner, funnel.id, {})),
    );
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(
      Array(5).fill('ok'),
    );
    expect((await stored(funnel.id)).map(([, position]) => position)).toEqual([0, 1, 2, 3, 4]);
  });

  it.each([
    ['a middle page', 2],
    ['the first page', 0],
    ['the last page', 4],
  ])('deleting %s closes the gap and keeps the order', async (_label, index) => {
    const { owner, funnel, pages } = await funnelWithPages(5);
    const removed = pages[index];
    if (!removed) throw new Error('no such page');
    await t.services.pages.remove(owner, removed.id);
    const kept = pages.filter((p) => p.id !== removed.id);
    expect(await stored(funnel.id)).toEqual(kept.map((p, i) => [p.id, i]));
    const appended = await t.services.pages.create(owner, funnel.id, {});
    expect(appended.position).toBe(4);
  });

  it('deleting pages one after another keeps positions 0..n-1', async () => {
    const { owner, funnel, pages } = await funnelWithPages(6);
    for (const index of [3, 1, 0]) await t.services.pages.remove(owner, pages[index]?.id ?? '');
    const kept = [pages[2], pages[4], pages[5]].map((p) => p?.id);
    expect(await stored(funnel.id)).toEqual(kept.map((id, i) => [id, i]));
  });

  it('every field of the test content differs from its default', () => {
    expect(Object.keys(FULL).sort()).toEqual([...FIELDS].sort());
    for (const field of FIELDS) expect(FULL[field], field).not.toEqual(PAGE_DEFAULTS[field]);
  });

  it('round-trips every field exactly', async () => {
    const owner = await newAccount(t.services);
    const { funnel, pages } = await newFunnel(t.services, owner, { pages: [FULL] });
    const created = pages[0];
    if (!created) throw new Error('page not created');
    expect(contentOf(created)).toEqual(FULL);
    expect(contentOf(await t.services.pages.get(owner, created.id))).toEqual(FULL);
    const [listed] = await t.services.pages.list(owner, funnel.id);
    if (!listed) throw new Error('page not listed');
    expect(contentOf(listed)).toEqual(FULL);
  });

  it('a page created without content has the defaults', async () => {
    const owner = await newAccount(t.services);
    const { pages } = await newFunnel(t.services, owner, { pages: [{}] });
    const [page] = pages;
    if (!page) throw new Error('page not created');
    expect(contentOf(page)).toEqual(PAGE_DEFAULTS);
  });

  it('nullable fields can be set back to null', async () => {
    const owner = await newAccount(t.services);
    const { pages } = await newFunnel(t.services, owner, { pages: [FULL] });
    const id = pages[0]?.id ?? '';
    const nulls = Object.fromEntries(NULLABLE.map((field) => [field, null]));
    await t.services.pages.update(owner, id, nulls);
    expect(contentOf(await t.services.pages.get(owner, id))).toEqual({ ...FULL, ...nulls });
  });

  it.each(RICH_TEXT_FIELDS)('sanitises %s on create and on update', async (field) => {
    const dirty = '<b onclick="x">a</b><script>alert(1)</script>';
    const owner = await newAccount(t.services);
    const { pages } = await newFunnel(t.services, owner, { pages: [{ [field]: dirty }] });
    const id = pages[0]?.id ?? '';
    expect(pages[0]?.[field]).toBe('<strong>a</strong>');
    await t.services.pages.update(owner, id, { [field]: `<i onclick="y">b</i>${dirty}` });
    expect((await t.services.pages.get(owner, id))[field]).toBe('<i>b</i><strong>a</strong>');
    const row = await t.db
      .selectFrom('pages')
      .select('content')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.content).not.toMatch(/script|onclick|alert/);
  });

  it.each(FIELDS)('PATCH of %s leaves every other field unchanged', async (field) => {
    const owner = await newAccount(t.services);
    const { pages } = await newFunnel(t.services, owner, { pages: [{}, FULL] });
    const before = pages[1];
    if (!before) throw new Error('page not created');
    const patch = { [field]: PAGE_DEFAULTS[field] };
    const after = await t.services.pages.update(owner, before.id, patch);
    expect(contentOf(after)).toEqual({ ...FULL, ...patch });
    expect(contentOf(await t.services.pages.get(owner, before.id))).toEqual({ ...FULL, ...patch });
    expect(after).toMatchObject({
      id: before.id,
      funnelId: before.funnelId,
      position: 1,
      createdAt: before.createdAt,
    });
  });
});
