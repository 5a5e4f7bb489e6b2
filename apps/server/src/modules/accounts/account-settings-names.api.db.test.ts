import { AccountAnswer, ApiError } from '@embudo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { api, startTestServer, type TestServer } from '../../../test/server';

/**
 * The WhatsApp landing pages' button colour is `whatsappLandingButtonBgColor` in the owner API
 * (issue 17: no "LPI" in the owner API). Its old name, `lpiButtonBgColor`, is still taken on a PATCH,
 * so existing clients keep working; answers carry the new name only.
 */
describe.each(TEST_DIALECTS)('the account settings’ names over the API on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  async function newOwner(): Promise<string> {
    const slug = `names-${Math.random().toString(36).slice(2, 10)}`;
    return (await server.services.accounts.create({ slug, name: 'Names' })).apiKey;
  }

  const account = (key: string, method: 'GET' | 'PATCH', body?: unknown) =>
    api(server, method, '/api/owner/account', { key, ...(body === undefined ? {} : { body }) });

  async function accountOf(key: string, method: 'GET' | 'PATCH', body?: unknown): Promise<AccountAnswer> {
    const answer = await account(key, method, body);
    expect(answer.status, answer.text).toBe(200);
    return AccountAnswer.parse(answer.body);
  }

  it('answers the colour as whatsappLandingButtonBgColor, and no longer as lpiButtonBgColor', async () => {
    const key = await newOwner();
    const answer = await account(key, 'GET');
    expect(answer.status).toBe(200);
    const settings = (answer.body as { settings: Record<string, unknown> }).settings;
    expect(settings).toEqual({ whatsappLandingButtonBgColor: null, contactEmail: null, timeZone: 'UTC' });
    expect(settings).not.toHaveProperty('lpiButtonBgColor');
  });

  it('takes the colour under its new name', async () => {
    const key = await newOwner();
    const patched = await accountOf(key, 'PATCH', { settings: { whatsappLandingButtonBgColor: '#25d366' } });
    expect(patched.settings.whatsappLandingButtonBgColor).toBe('#25d366');
    expect((await accountOf(key, 'GET')).settings.whatsappLandingButtonBgColor).toBe('#25d366');
  });

  it('still takes the colour under its old name, and answers it under the new one', async () => {
    const key = await newOwner();
    const patched = await accountOf(key, 'PATCH', { settings: { lpiButtonBgColor: '#128c7e' } });
    expect(patched.settings).toEqual({
      whatsappLandingButtonBgColor: '#128c7e',
      contactEmail: null,
      timeZone: 'UTC',
    });
    expect((await accountOf(key, 'GET')).settings.whatsappLandingButtonBgColor).toBe('#128c7e');
  });

  it('changes only the settings a PATCH sends: the colour stays when the contact e-mail changes, and back', async () => {
    const key = await newOwner();
    await accountOf(key, 'PATCH', { settings: { whatsappLandingButtonBgColor: '#25d366' } });
    const withEmail = await accountOf(key, 'PATCH', { settings: { contactEmail: 'hola@example.test' } });
    expect(withEmail.settings).toEqual({
      whatsappLandingButtonBgColor: '#25d366',
      contactEmail: 'hola@example.test',
      timeZone: 'UTC',
    });
    const withColour = await accountOf(key, 'PATCH', { settings: { lpiButtonBgColor: '#128c7e' } });
    expect(withColour.settings).toEqual({
      whatsappLandingButtonBgColor: '#128c7e',
      contactEmail: 'hola@example.test',
      timeZone: 'UTC',
    });
    const cleared = await accountOf(key, 'PATCH', { settings: { contactEmail: null } });
    expect((await accountOf(key, 'GET')).settings).toEqual(cleared.settings);
    expect(cleared.settings).toEqual({
      whatsappLandingButtonBgColor: '#128c7e',
      contactEmail: null,
      timeZone: 'UTC',
    });
  });

  it('prefers the new name when a PATCH sends both', async () => {
    const key = await newOwner();
    const patched = await accountOf(key, 'PATCH', {
      settings: { lpiButtonBgColor: '#000000', whatsappLandingButtonBgColor: '#25d366' },
    });
    expect(patched.settings.whatsappLandingButtonBgColor).toBe('#25d366');
  });

  it('refuses a colour that is not one under either name, naming the field sent', async () => {
    const key = await newOwner();
    for (const field of ['whatsappLandingButtonBgColor', 'lpiButtonBgColor']) {
      const answer = await account(key, 'PATCH', { settings: { [field]: 'red' } });
      expect(answer.status).toBe(400);
      expect(ApiError.parse(answer.body).issues?.map((issue) => issue.path)).toEqual([
        `body.settings.${field}`,
      ]);
    }
    expect((await accountOf(key, 'GET')).settings.whatsappLandingButtonBgColor).toBeNull();
  });

  it('documents the new name in the OpenAPI document, and the old one as deprecated', async () => {
    const doc = (await api(server, 'GET', '/api/docs/json')).body as {
      paths: Record<string, Record<string, { requestBody?: unknown; description?: string }>>;
    };
    const patch = doc.paths['/api/owner/account']?.patch;
    expect(patch?.description).toContain('lpiButtonBgColor');
    const settings = JSON.stringify(patch?.requestBody);
    expect(settings).toContain('"whatsappLandingButtonBgColor"');
    expect(settings).toMatch(/"lpiButtonBgColor":\{"deprecated":true/);
  });
});
