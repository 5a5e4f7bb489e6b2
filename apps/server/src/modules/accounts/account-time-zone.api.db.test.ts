import { AccountAnswer, ApiError } from '@embudo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { api, startTestServer, type TestServer } from '../../../test/server';

/** The account's time zone: the days analytics counts by (decision 25). */
describe.each(TEST_DIALECTS)('the account’s time zone on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  async function newOwner(timeZone?: string): Promise<string> {
    const slug = `zone-${Math.random().toString(36).slice(2, 10)}`;
    return (
      await server.services.accounts.create({
        slug,
        name: 'Zone',
        ...(timeZone === undefined ? {} : { settings: { timeZone } }),
      })
    ).apiKey;
  }

  const account = async (key: string, method: 'GET' | 'PATCH', body?: unknown) =>
    api(server, method, '/api/owner/account', { key, ...(body === undefined ? {} : { body }) });

  it('is UTC until set, then the zone set, kept when another setting changes', async () => {
    const key = await newOwner();
    expect(AccountAnswer.parse((await account(key, 'GET')).body).settings.timeZone).toBe('UTC');
    const set = await account(key, 'PATCH', { settings: { timeZone: 'America/Sao_Paulo' } });
    expect(set.status, set.text).toBe(200);
    expect(AccountAnswer.parse(set.body).settings.timeZone).toBe('America/Sao_Paulo');
    await account(key, 'PATCH', { settings: { contactEmail: 'hola@example.test' } });
    expect(AccountAnswer.parse((await account(key, 'GET')).body).settings.timeZone).toBe('America/Sao_Paulo');
  });

  it('is the zone the account was created with', async () => {
    const key = await newOwner('Europe/Madrid');
    expect(AccountAnswer.parse((await account(key, 'GET')).body).settings.timeZone).toBe('Europe/Madrid');
  });

  it('refuses a name that is no IANA time zone, beside the field, and changes nothing', async () => {
    const key = await newOwner('America/Bogota');
    for (const timeZone of ['Mars/Olympus_Mons', '', 'UTC+3', 42]) {
      const answer = await account(key, 'PATCH', { settings: { timeZone } });
      expect(answer.status, JSON.stringify(timeZone)).toBe(400);
      expect(ApiError.parse(answer.body).issues?.map((issue) => issue.path)).toEqual([
        'body.settings.timeZone',
      ]);
    }
    expect(AccountAnswer.parse((await account(key, 'GET')).body).settings.timeZone).toBe('America/Bogota');
  });
});
