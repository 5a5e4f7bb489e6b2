import { Funnel, LeadCreated, LeadList, Page } from '@embudo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { api, startTestServer, type TestServer } from '../../../test/server';

/** The Studio's leads table over HTTP: query parameters as a browser sends them. */
describe.each(TEST_DIALECTS)('the leads table over the owner API on %s', (dialect) => {
  let server: TestServer;
  let key = '';
  let funnel: Funnel;
  const pages: Page[] = [];

  const owner = (method: string, path: string, body?: unknown) =>
    api(server, method, `/api/owner${path}`, { key, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    key = (await server.services.accounts.create({ slug: 'table', name: 'Table' })).apiKey;
    funnel = Funnel.parse((await owner('POST', '/funnels', { name: 'Leads' })).body);
    for (const headline of ['One', 'Two']) {
      pages.push(Page.parse((await owner('POST', `/funnels/${funnel.id}/pages`, { headline })).body));
    }
    const imported = await owner('POST', `/funnels/${funnel.id}/leads/import`, {
      leads: [
        { name: 'Ana López', email: 'ana@example.com', phone: '+52 55 1234 5678' },
        { name: 'Bruno Anaya' },
        { name: 'Carla Núñez' },
      ],
    });
    expect(imported.status, imported.text).toBe(201);
  });
  afterAll(async () => {
    await server.close();
  });

  const list = async (query: string) => {
    const answer = await owner('GET', `/funnels/${funnel.id}/leads${query}`);
    expect(answer.status, answer.text).toBe(200);
    return LeadList.parse(answer.body);
  };

  it('searches, orders and pages by the query string', async () => {
    expect((await list('?search=n%C3%BA%C3%B1')).items.map((l) => l.name)).toEqual(['Carla Núñez']);
    expect((await list('?search=%2B52%2055')).items.map((l) => l.name)).toEqual(['Ana López']);
    const first = await list('?search=ana&order=newest&limit=1');
    expect(first.items.map((l) => l.name)).toEqual(['Bruno Anaya']);
    const second = await list(`?search=ana&order=newest&limit=1&cursor=${first.nextCursor ?? ''}`);
    expect(second.items.map((l) => l.name)).toEqual(['Ana López']);
    expect(second.nextCursor).toBeNull();
    const mixed = await owner(
      'GET',
      `/funnels/${funnel.id}/leads?order=oldest&limit=1&cursor=${first.nextCursor ?? ''}`,
    );
    expect(mixed.status).toBe(400);
    expect(mixed.text).toContain('cursor');
    expect((await list(`?pageId=${pages[1]?.id ?? ''}`)).items).toEqual([]);
    expect((await list(`?pageId=${pages[0]?.id ?? ''}`)).items).toHaveLength(3);
  });

  it("a new link opens the lead's page; the old one no longer does", async () => {
    const created = LeadCreated.parse(
      (await owner('POST', `/funnels/${funnel.id}/leads`, { name: 'Dora' })).body,
    );
    const site = (token: string) =>
      api(server, 'POST', '/api/funnel/site', {
        body: { token, domain: server.url, slug: 'table', type: 'BASE' },
      });
    expect((await site(created.token)).text).toContain('One');
    const renewed = await owner('POST', `/leads/${created.lead.id}/link`);
    expect(renewed.status, renewed.text).toBe(201);
    const { token, url } = LeadCreated.parse(renewed.body);
    expect(url).toBe(`${server.url}/table/${token}`);
    expect((await site(token)).text).toContain('One');
    expect((await site(created.token)).text).not.toContain('One');
  });

  it('a lead erased over the API is gone from the table and its link', async () => {
    const created = LeadCreated.parse(
      (await owner('POST', `/funnels/${funnel.id}/leads`, { name: 'Erasmo' })).body,
    );
    expect((await owner('DELETE', `/leads/${created.lead.id}`)).status).toBe(204);
    expect((await list('?search=erasmo')).items).toEqual([]);
    expect((await owner('GET', `/leads/${created.lead.id}`)).status).toBe(404);
  });
});
