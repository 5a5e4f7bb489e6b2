import { createHash, randomUUID } from 'node:crypto';
import type { Account, FunnelCreate, Lead } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { PUBLIC_URL, newAccount, newFunnel, useServices } from '../../../test/fixtures';
import { HttpError } from '../../lib/http-errors';
import { createLeadRepo, type LeadRow } from './lead.repo';
import { createLeadService } from './lead.service';

const HOUR = 3_600_000;
const names = (count: number, prefix = 'Lead') =>
  Array.from({ length: count }, (_, i) => ({ name: `${prefix} ${i}` }));

describe.each(TEST_DIALECTS)('leads on %s', (dialect) => {
  const t = useServices(dialect);

  async function funnelOf(funnel: Partial<FunnelCreate> = {}) {
    const owner = await newAccount(t.services);
    const created = await newFunnel(t.services, owner, { funnel, pages: [{}, {}] });
    return { owner, funnelId: created.funnel.id, firstPageId: created.pages[0]?.id };
  }

  const countLeads = async (funnelId: string) =>
    (await t.db.selectFrom('leads').select('id').where('funnelId', '=', funnelId).execute()).length;

  /** A lead service on the test database whose clock the test sets. */
  const leadsAt = (clock: () => number) =>
    createLeadService({
      leads: createLeadRepo(t.db),
      progress: t.services.progress,
      funnels: t.services.funnels,
      links: t.services.links,
      now: clock,
    });

  it('gives each new lead an unguessable URL-safe token and its link', async () => {
    const { owner, funnelId, firstPageId } = await funnelOf();
    const created = await t.services.leads.create(owner, funnelId, { name: 'Ana' });
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(Buffer.from(created.token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(created.url).toBe(`${PUBLIC_URL}/${owner.slug}/${created.token}`);
    expect(created.lead).toMatchObject({ name: 'Ana', funnelId, currentPageId: firstPageId });
    const other = await t.services.leads.create(owner, funnelId, { name: 'Bruno' });
    expect(other.token).not.toBe(created.token);
  });

  it('stores only the SHA-256 hash of the token', async () => {
    const { owner, funnelId } = await funnelOf();
    const { lead, token } = await t.services.leads.create(owner, funnelId, {
      name: 'Ana',
      email: 'ana@example.com',
      phone: '+52 55 1234 5678',
    });
    const row = await createLeadRepo(t.db).findById(lead.id);
    expect(row?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    const rows = await t.db.selectFrom('leads').selectAll().execute();
    for (const stored of rows) {
      for (const value of Object.values(stored)) expect(String(value)).not.toContain(token);
    }
  });

  it('imports 1,200 leads whole', async () => {
    const { owner, funnelId } = await funnelOf();
    const imported = await t.services.leads.import(owner, funnelId, names(1200));
    expect(imported.count).toBe(1200);
    expect(new Set(imported.leads.map((l) => l.token)).size).toBe(1200);
    expect(await countLeads(funnelId)).toBe(1200);
  });

  it('a batch that fails part-way leaves none of its rows behind', async () => {
    const { owner, funnelId } = await funnelOf();
    const batch = randomUUID();
    const rows = Array.from({ length: 1200 }, (_, i): LeadRow => ({
      id: randomUUID(),
      accountId: owner.id,
      funnelId,
      tokenHash: `${batch}-${i}`,
      name: `Lead ${i}`,
      email: null,
      phone: null,
      currentPageId: null,
      deadlineAt: null,
      deadlineExceptionOn: null,
      createdAt: Date.now(),
      lastIp: null,
      lastIpAt: null,
    }));
    // The third chunk repeats a hash of the first: the first two chunks are written before it fails.
    rows[1100] = { ...(rows[1100] as LeadRow), tokenHash: `${batch}-3` };
    await expect(createLeadRepo(t.db).insertMany(rows)).rejects.toThrow();
    expect(await countLeads(funnelId)).toBe(0);
  });

  it('an import that collides with an existing token adds none of its leads', async () => {
    const { owner, funnelId } = await funnelOf();
    const taken = await t.services.leads.create(owner, funnelId, { name: 'First' });
    const inputs = [...names(1199), { name: 'Clash', token: taken.token }];
    await expect(t.services.leads.import(owner, funnelId, inputs)).rejects.toThrow();
    expect(await countLeads(funnelId)).toBe(1);
  });

  it('pagination walks every lead exactly once, in order, across equal creation times', async () => {
    const { owner, funnelId } = await funnelOf();
    let now = 1_700_000_000_000;
    const leads = leadsAt(() => now);
    const created: Lead[] = [];
    for (const [at, count] of [
      [now, 4],
      [now + 1000, 3],
      [now - 5000, 2],
      [now + 2000, 1],
    ] as const) {
      now = at;
      created.push(...(await leads.import(owner, funnelId, names(count))).leads.map((l) => l.lead));
    }
    const expected = created
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : 1))
      .map((l) => l.id);

    for (const limit of [1, 2, 3, 5, 10, 50]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 20; page++) {
        const result = await t.services.leads.list(owner, funnelId, { cursor, limit });
        expect(result.items.length).toBeLessThanOrEqual(limit);
        seen.push(...result.items.map((l) => l.id));
        if (result.nextCursor === null) break;
        cursor = result.nextCursor;
      }
      expect(seen, `limit ${limit}`).toEqual(expected);
    }
  });

  it.each([
    'garbage',
    'YWJjOg',
    Buffer.from('12:').toString('base64url'),
    Buffer.from('x:y').toString('base64url'),
  ])('an invalid cursor %j is a 400', async (cursor) => {
    const { owner, funnelId } = await funnelOf();
    const error: unknown = await t.services.leads
      .list(owner, funnelId, { cursor, limit: 10 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 400 });
  });

  it('a funnel deadline 48 hours after creation sets the lead’s deadline', async () => {
    const { owner, funnelId } = await funnelOf({ deadline: { mode: 'afterLeadCreated', hours: 48 } });
    const { lead } = await t.services.leads.create(owner, funnelId, { name: 'Ana' });
    expect(lead.deadlineAt).not.toBeNull();
    expect(Date.parse(lead.deadlineAt ?? '') - Date.parse(lead.createdAt)).toBe(48 * HOUR);
    expect(await t.services.leads.get(owner, lead.id)).toEqual(lead);
  });

  it.each([{ mode: 'fixed', at: '2030-01-01T00:00:00.000Z' }, { mode: 'none' }] as const)(
    'a $mode funnel deadline stores none on the lead',
    async (deadline) => {
      const { owner, funnelId } = await funnelOf({ deadline });
      const { lead } = await t.services.leads.create(owner, funnelId, { name: 'Ana' });
      expect(lead.deadlineAt).toBeNull();
      expect((await createLeadRepo(t.db).findById(lead.id))?.deadlineAt).toBeNull();
    },
  );

  it('an empty patch changes nothing and answers the lead as it was', async () => {
    const { owner, funnelId } = await funnelOf();
    const created = await t.services.leads.create(owner, funnelId, { name: 'Ana', email: 'ana@example.com' });
    const updated = await t.services.leads.update(owner, created.lead.id, {});
    expect(updated).toEqual(created.lead);
  });

  it('deadlineExceptionOn null, true and false round-trip', async () => {
    const { owner, funnelId } = await funnelOf();
    const values = [null, true, false] as const;
    for (const value of values) {
      const { lead } = await t.services.leads.create(owner, funnelId, {
        name: 'Ana',
        deadlineExceptionOn: value,
      });
      expect(lead.deadlineExceptionOn).toBe(value);
      expect((await t.services.leads.get(owner, lead.id)).deadlineExceptionOn).toBe(value);
      for (const next of values) {
        const updated = await t.services.leads.update(owner, lead.id, { deadlineExceptionOn: next });
        expect(updated.deadlineExceptionOn).toBe(next);
      }
    }
    const { lead } = await t.services.leads.create(owner, funnelId, { name: 'Bruno' });
    expect(lead.deadlineExceptionOn).toBeNull();
  });

  it('another account cannot list or open the funnel’s leads', async () => {
    const { owner, funnelId } = await funnelOf();
    const { lead } = await t.services.leads.create(owner, funnelId, { name: 'Ana' });
    const stranger: Account = await newAccount(t.services);
    await expect(t.services.leads.get(stranger, lead.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(t.services.leads.list(stranger, funnelId, { limit: 10 })).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});
