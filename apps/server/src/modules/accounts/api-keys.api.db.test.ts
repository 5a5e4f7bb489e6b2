import { createHash } from 'node:crypto';
import { ApiKey, ApiKeyCreated } from '@embudo/contracts';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { rowCounts } from '../../../test/fixtures';
import { api, startTestServer, type TestServer } from '../../../test/server';

/** An account's API keys in the Studio's settings (issue 18): list, create (shown once), revoke. */
describe.each(TEST_DIALECTS)('API keys over the owner API on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  const owner = (method: string, path: string, key: string, body?: unknown) =>
    api(server, method, `/api/owner${path}`, { key, ...(body === undefined ? {} : { body }) });

  async function newOwner() {
    const slug = `keys-${Math.random().toString(36).slice(2, 10)}`;
    return server.services.accounts.create({ slug, name: 'Keys' });
  }

  const listOf = async (key: string) => {
    const listed = await owner('GET', '/api-keys', key);
    expect(listed.status, listed.text).toBe(200);
    return z.array(ApiKey).parse(listed.body);
  };

  it("lists the account's keys by label and first characters, never the key", async () => {
    const { apiKey } = await newOwner();
    const listed = await listOf(apiKey);
    expect(listed.map((k) => [k.label, k.prefix])).toEqual([['default', apiKey.slice(0, 8)]]);
    expect(listed[0]?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(JSON.stringify(listed)).not.toContain(apiKey.slice(0, 12));
  });

  it('creates a key shown once and stored hashed; it opens the account', async () => {
    const { apiKey, account } = await newOwner();
    const created = await owner('POST', '/api-keys', apiKey, { label: 'Zapier' });
    expect(created.status, created.text).toBe(201);
    const { key, apiKey: answered } = ApiKeyCreated.parse(created.body);
    expect(key).toMatch(/^emb_[A-Za-z0-9_-]{40,}$/);
    expect(answered).toMatchObject({ label: 'Zapier', prefix: key.slice(0, 8), lastUsedAt: null });
    const stored = await server.database.db
      .selectFrom('apiKeys')
      .selectAll()
      .where('id', '=', answered.id)
      .executeTakeFirst();
    expect(stored?.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(
      Object.values(stored ?? {})
        .map(String)
        .join(' '),
    ).not.toContain(key);
    const me = await owner('GET', '/account', key);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: account.id });
    expect((await listOf(apiKey)).map((k) => k.label)).toEqual(['default', 'Zapier']);
    // Never shown again.
    expect(JSON.stringify(await listOf(apiKey))).not.toContain(key.slice(8));
  });

  it('a key made before prefixes were stored shows a generic one', async () => {
    const { apiKey, account } = await newOwner();
    await server.database.db
      .updateTable('apiKeys')
      .set({ prefix: null })
      .where('accountId', '=', account.id)
      .execute();
    expect((await listOf(apiKey)).map((k) => k.prefix)).toEqual(['emb_']);
  });

  it('a revoked key stops working at once, even the one that revoked itself', async () => {
    const { apiKey } = await newOwner();
    const second = ApiKeyCreated.parse((await owner('POST', '/api-keys', apiKey, { label: 'CI' })).body);
    expect((await owner('GET', '/funnels', second.key)).status).toBe(200);
    const revoked = await owner('DELETE', `/api-keys/${second.apiKey.id}`, apiKey);
    expect(revoked.status, revoked.text).toBe(204);
    expect((await owner('GET', '/funnels', second.key)).status).toBe(401);
    expect((await listOf(apiKey)).map((k) => k.label)).toEqual(['default']);

    const [own] = await listOf(apiKey);
    const self = await owner('DELETE', `/api-keys/${own?.id ?? ''}`, apiKey);
    expect(self.status, self.text).toBe(204);
    expect((await owner('GET', '/funnels', apiKey)).status).toBe(401);
  });

  it("another account's key is a 404, and stays", async () => {
    const mine = await newOwner();
    const theirs = await newOwner();
    const [their] = await listOf(theirs.apiKey);
    const before = await rowCounts(server.database.db);
    const refused = await owner('DELETE', `/api-keys/${their?.id ?? ''}`, mine.apiKey);
    expect(refused.status).toBe(404);
    expect(await rowCounts(server.database.db)).toEqual(before);
    expect((await owner('GET', '/funnels', theirs.apiKey)).status).toBe(200);
    expect((await listOf(mine.apiKey)).map((k) => k.id)).not.toContain(their?.id);
  });

  it('a label is required', async () => {
    const { apiKey } = await newOwner();
    const refused = await owner('POST', '/api-keys', apiKey, { label: '' });
    expect(refused.status).toBe(400);
    expect((await listOf(apiKey)).length).toBe(1);
  });
});
