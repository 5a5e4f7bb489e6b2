import { ApiError, ErrorCode, Funnel, Page } from '@embudo/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, rowCounts, useServices } from '../../../test/fixtures';
import { api, startTestServer, type TestServer } from '../../../test/server';
import { createPageRepo } from './page.repo';
import { createPageService } from './page.service';

/**
 * What one account may store (issue 16): pages per funnel, characters per rich-text field, text of a
 * funnel's pages in all, funnels per account. Each is a setting (config.ts) with a default; a save
 * beyond one is a 4xx in the API's error shape naming the limit and its value, and writes nothing.
 */

/** Small limits, so that the tests reach them. */
const LIMITS = {
  MAX_PAGES_PER_FUNNEL: '3',
  MAX_RICH_TEXT_CHARS: '100',
  MAX_FUNNEL_CONTENT_CHARS: '500',
  MAX_FUNNELS_PER_ACCOUNT: '2',
};

describe.each(TEST_DIALECTS)('owner limits over the API on %s', (dialect) => {
  let server: TestServer;
  let key = '';

  beforeAll(async () => {
    server = await startTestServer(dialect, LIMITS);
  });
  afterAll(async () => {
    await server.close();
  });

  const owner = (method: string, path: string, body?: unknown, as = key) =>
    api(server, method, `/api/owner${path}`, { key: as, ...(body === undefined ? {} : { body }) });

  async function newOwner(): Promise<string> {
    const slug = `lim-${Math.random().toString(36).slice(2, 10)}`;
    return (await server.services.accounts.create({ slug, name: 'Limits' })).apiKey;
  }

  async function newFunnel(as = key): Promise<Funnel> {
    const created = await owner('POST', '/funnels', { name: 'Limits' }, as);
    expect(created.status, created.text).toBe(201);
    return Funnel.parse(created.body);
  }

  const versionOf = async (funnelId: string) =>
    (
      await server.database.db
        .selectFrom('contentVersions')
        .select('version')
        .where('funnelId', '=', funnelId)
        .executeTakeFirst()
    )?.version;

  /** Refused with this status, in the error shape, with a message containing `names`; nothing written. */
  async function expectRefused(
    attempt: () => Promise<Awaited<ReturnType<typeof api>>>,
    status: number,
    names: string,
    funnelId: string,
  ): Promise<ApiError> {
    const rowsBefore = await rowCounts(server.database.db);
    const versionBefore = await versionOf(funnelId);
    const answer = await attempt();
    expect(answer.status, answer.text).toBe(status);
    const error = ApiError.strict().parse(answer.body);
    expect(error.statusCode).toBe(status);
    expect(error.message).toContain(names);
    expect(await rowCounts(server.database.db)).toEqual(rowsBefore);
    expect(await versionOf(funnelId)).toBe(versionBefore);
    return error;
  }

  // Each test has an account of its own, whose funnels count against nobody else's limit.
  beforeEach(async () => {
    key = await newOwner();
  });

  it('a funnel has at most MAX_PAGES_PER_FUNNEL pages: one more is a 409 naming the limit', async () => {
    const funnel = await newFunnel();
    for (let i = 0; i < 3; i += 1)
      expect((await owner('POST', `/funnels/${funnel.id}/pages`, { headline: `P${i}` })).status).toBe(201);
    const error = await expectRefused(
      () => owner('POST', `/funnels/${funnel.id}/pages`, { headline: 'Una más' }),
      409,
      'a funnel has at most 3 pages',
      funnel.id,
    );
    expect(error.code).toBe(ErrorCode.conflict);
    // A page deleted makes room for one more.
    const [first] = (await owner('GET', `/funnels/${funnel.id}/pages`)).body as Page[];
    expect((await owner('DELETE', `/pages/${first?.id ?? ''}`)).status).toBe(204);
    expect((await owner('POST', `/funnels/${funnel.id}/pages`, { headline: 'Otra' })).status).toBe(201);
  });

  it('pages created at once never pass the limit', async () => {
    const funnel = await newFunnel();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        owner('POST', `/funnels/${funnel.id}/pages`, { headline: `C${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(5);
    expect((await owner('GET', `/funnels/${funnel.id}`)).body).toMatchObject({ pageCount: 3 });
  });

  it('a rich-text field holds at most MAX_RICH_TEXT_CHARS characters once sanitised, on create and update', async () => {
    const funnel = await newFunnel();
    const fits = await owner('POST', `/funnels/${funnel.id}/pages`, { headline: '中'.repeat(100) });
    expect(fits.status, fits.text).toBe(201);
    const page = Page.parse(fits.body);
    const created = await expectRefused(
      () => owner('POST', `/funnels/${funnel.id}/pages`, { topline: '中'.repeat(101) }),
      400,
      'a rich-text field holds at most 100 characters',
      funnel.id,
    );
    expect(created.issues?.[0]?.path).toBe('body.topline');
    // 40 characters that escaping makes 200 (& is stored as &amp;).
    const escaped = await expectRefused(
      () => owner('PATCH', `/pages/${page.id}`, { buttonCopy: '&'.repeat(40) }),
      400,
      'buttonCopy is 200 characters once sanitised; a rich-text field holds at most 100 characters',
      funnel.id,
    );
    expect(escaped.code).toBe(ErrorCode.validation);
    expect(Page.parse((await owner('GET', `/pages/${page.id}`)).body).buttonCopy).toBe('');
  });

  it("a funnel's pages hold at most MAX_FUNNEL_CONTENT_CHARS characters of text in all, links and video fields included", async () => {
    const funnel = await newFunnel();
    const full = { topline: 'a'.repeat(100), headline: 'b'.repeat(100), subheadline: 'c'.repeat(100) };
    const first = await owner('POST', `/funnels/${funnel.id}/pages`, full);
    expect(first.status, first.text).toBe(201);
    const second = await owner('POST', `/funnels/${funnel.id}/pages`, { headline: 'd'.repeat(100) });
    const page = Page.parse(second.body);
    // 400 of 500 used: 101 more characters are one too many, as rich text or as a link.
    const error = await expectRefused(
      () =>
        owner('POST', `/funnels/${funnel.id}/pages`, { topline: 'e'.repeat(50), buttonCopy: 'f'.repeat(51) }),
      400,
      "a funnel's pages hold at most 500 characters of text in all (MAX_FUNNEL_CONTENT_CHARS); with this page they would hold 501",
      funnel.id,
    );
    expect(error.issues).toEqual([{ path: 'body', message: error.message }]);
    await expectRefused(
      () => owner('PATCH', `/pages/${page.id}`, { videoLibrary: 'x'.repeat(101) }),
      400,
      'at most 500 characters of text',
      funnel.id,
    );
    // Up to the limit exactly is fine, and so is a change that makes the page smaller.
    const upTo = await owner('PATCH', `/pages/${page.id}`, {
      bgImageUrl: `https://x.example/${'y'.repeat(82)}`,
    });
    expect(upTo.status, upTo.text).toBe(200);
    expect((await owner('PATCH', `/pages/${page.id}`, { headline: 'corto' })).status).toBe(200);
  });

  it('an account has at most MAX_FUNNELS_PER_ACCOUNT funnels: one more is a 409 naming the limit', async () => {
    const mine = await newOwner();
    await newFunnel(mine);
    const second = await newFunnel(mine);
    const error = await expectRefused(
      () => owner('POST', '/funnels', { name: 'Tercero' }, mine),
      409,
      'an account has at most 2 funnels (MAX_FUNNELS_PER_ACCOUNT)',
      second.id,
    );
    expect(error.code).toBe(ErrorCode.conflict);
    // Another account is not affected; a funnel deleted makes room.
    await newFunnel(await newOwner());
    expect((await owner('DELETE', `/funnels/${second.id}`, undefined, mine)).status).toBe(204);
    await newFunnel(mine);
  });

  it('funnels created at once never pass the limit', async () => {
    const mine = await newOwner();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => owner('POST', '/funnels', { name: `F${i}` }, mine)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409, 409, 409, 409]);
  });

  it('the OpenAPI document states this server’s limits', async () => {
    const doc = (await api(server, 'GET', '/api/docs/json')).body as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    const pages = doc.paths['/api/owner/funnels/{id}/pages']?.post?.description ?? '';
    expect(pages).toContain('A funnel has at most 3 pages (MAX_PAGES_PER_FUNNEL');
    expect(pages).toContain('holds at most 100 characters once sanitised (MAX_RICH_TEXT_CHARS)');
    expect(pages).toContain('at most 500 characters of text');
    expect(doc.paths['/api/owner/pages/{id}']?.patch?.description).toContain('at most 3 pages');
    expect(doc.paths['/api/owner/funnels']?.post?.description).toContain('at most 2 funnels');
  });
});

describe.each(TEST_DIALECTS)('owner limits an operator lowered, on %s', (dialect) => {
  const t = useServices(dialect);

  it('a funnel already past a lowered content limit may still shrink or keep its size, never grow', async () => {
    const owner = await newAccount(t.services);
    const funnel = await t.services.funnels.create(owner, { name: 'Antes' });
    const page = await t.services.pages.create(owner, funnel.id, { headline: 'x'.repeat(300) });
    const lowered = createPageService({
      pages: createPageRepo(t.db, dialect),
      funnels: t.services.funnels,
      limits: { pagesPerFunnel: 1, richTextChars: 1000, funnelContentChars: 100 },
    });
    await expect(lowered.update(owner, page.id, { topline: 'y' })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('at most 100 characters of text') as unknown,
    });
    expect((await lowered.update(owner, page.id, { headline: 'z'.repeat(300) })).headline).toBe(
      'z'.repeat(300),
    );
    expect((await lowered.update(owner, page.id, { headline: 'corto' })).headline).toBe('corto');
    await expect(lowered.create(owner, funnel.id, {})).rejects.toMatchObject({
      statusCode: 409,
      message: 'a funnel has at most 1 pages (MAX_PAGES_PER_FUNNEL)',
    });
  });
});
