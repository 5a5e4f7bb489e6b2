import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, useServices } from '../../../test/fixtures';
import { openDatabase, type DatabaseHandle } from '../../db';
import { createPixelRepo } from './pixel.repo';

const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);

describe.each(TEST_DIALECTS)('pixel outbox on %s', (dialect) => {
  const t = useServices(dialect);
  /** A second connection to the same database, as a second worker process would have. */
  let other: DatabaseHandle | undefined;
  beforeAll(() => {
    const { url, schema } = t.database;
    other = openDatabase(url, schema ? { schema, poolSize: 4 } : {});
  });
  afterAll(async () => {
    await other?.close();
  });

  const row = (eventId: string, funnelId: string, createdAt = T0) => ({
    eventId,
    accountId: 'account-1',
    funnelId,
    payload: JSON.stringify({ event_id: eventId }),
    createdAt,
  });

  it('stores an event id once', async () => {
    const repo = createPixelRepo(t.db, dialect);
    expect(await repo.enqueue(row('repo-dedup-1', 'f-dedup'))).toBe(true);
    expect(await repo.enqueue({ ...row('repo-dedup-1', 'f-other'), payload: '{}' })).toBe(false);
    const rows = await repo.listByFunnel('f-dedup');
    expect(rows.map((r) => r.eventId)).toEqual(['repo-dedup-1']);
    expect(await repo.listByFunnel('f-other')).toEqual([]);
  });

  it('claims only due, open rows, and leases them', async () => {
    const repo = createPixelRepo(t.db, dialect);
    const at = T0 + 1_000_000_000;
    await repo.enqueue({ ...row('repo-due-1', 'f-due'), nextAttemptAt: at });
    await repo.enqueue({ ...row('repo-due-2', 'f-due'), nextAttemptAt: at + 1 });
    await repo.enqueue({ ...row('repo-due-3', 'f-due'), nextAttemptAt: at - 5 });
    const delivered = await repo.findByEventId('repo-due-3');
    await repo.markDelivered([delivered?.id ?? 0], at);
    // Everything else in the table was due long ago: take it out of the way first.
    while ((await repo.claimDue(at - 1, 1000, 10_000_000_000)).length > 0);

    const claimed = await repo.claimDue(at, 10, 60_000);
    expect(claimed.map((r) => r.eventId)).toEqual(['repo-due-1']);
    expect(claimed[0]?.nextAttemptAt).toBe(at + 60_000);
    // Claimed rows are not due again while the lease lasts.
    expect(await repo.claimDue(at, 10, 60_000)).toEqual([]);
    expect((await repo.claimDue(at + 1, 10, 60_000)).map((r) => r.eventId)).toEqual(['repo-due-2']);
    expect(await repo.claimDue(at + 59_999, 10, 60_000)).toEqual([]);
    // The lease over, a claim that was never settled is due again.
    expect((await repo.claimDue(at + 60_000, 10, 60_000)).map((r) => r.eventId)).toEqual(['repo-due-1']);
  });

  it('records failures, deliveries and drops', async () => {
    const repo = createPixelRepo(t.db, dialect);
    await repo.enqueue(row('repo-mark-1', 'f-mark'));
    await repo.enqueue(row('repo-mark-2', 'f-mark'));
    const [first, second] = await repo.listByFunnel('f-mark');
    if (!first || !second) throw new Error('rows missing');
    await repo.markFailed(first.id, 1, T0 + 5000, 'HTTP 500: boom');
    expect(await repo.findByEventId('repo-mark-1')).toMatchObject({
      attempts: 1,
      nextAttemptAt: T0 + 5000,
      lastError: 'HTTP 500: boom',
      deliveredAt: null,
    });
    await repo.markDelivered([first.id], T0 + 6000);
    await repo.markDropped(second.id, T0 + 7000, 'too old');
    expect(await repo.findByEventId('repo-mark-1')).toMatchObject({
      deliveredAt: T0 + 6000,
      lastError: null,
    });
    expect(await repo.findByEventId('repo-mark-2')).toMatchObject({
      droppedAt: T0 + 7000,
      lastError: 'too old',
    });
    // A settled row stays settled.
    await repo.markFailed(first.id, 2, T0 + 9000, 'late failure');
    expect(await repo.findByEventId('repo-mark-1')).toMatchObject({ attempts: 1, deliveredAt: T0 + 6000 });
  });

  it('brings forward the failed events of the named funnels only, never a row a worker holds', async () => {
    const repo = createPixelRepo(t.db, dialect);
    const at = T0 + 3_000_000_000;
    // Everything else in the table was due long ago: take it out of the way first.
    while ((await repo.claimDue(at - 1, 1000, 10_000_000_000)).length > 0);
    for (const id of ['waiting', 'held', 'settled', 'later'])
      await repo.enqueue({ ...row(`repo-retry-${id}`, 'f-retry'), nextAttemptAt: at });
    await repo.enqueue({ ...row('repo-retry-elsewhere', 'f-retry-other'), nextAttemptAt: at });
    await repo.enqueue({ ...row('repo-retry-fresh', 'f-retry'), nextAttemptAt: at + 500 });
    const ids = new Map((await repo.listByFunnel('f-retry')).map((r) => [r.eventId, r.id]));
    const other = await repo.findByEventId('repo-retry-elsewhere');
    const id = (name: string) => ids.get(`repo-retry-${name}`) ?? 0;
    // Failed, waiting for their backoff: here and in another funnel.
    await repo.markFailed(id('waiting'), 3, at + 3_600_000, 'HTTP 503: down');
    await repo.markFailed(id('later'), 1, at + 5_000, 'HTTP 503: down');
    await repo.markFailed(other?.id ?? 0, 2, at + 3_600_000, 'HTTP 503: down');
    await repo.markFailed(id('settled'), 1, at + 5_000, 'HTTP 503: down');
    await repo.markDelivered([id('settled')], at);
    // Failed once, then claimed again by a worker: its lease is not a backoff.
    await repo.markFailed(id('held'), 1, at, 'HTTP 503: down');
    expect((await repo.claimDue(at, 10, 60_000)).map((r) => r.eventId)).toEqual(['repo-retry-held']);

    expect(await repo.retryWaiting(['f-retry'], at + 100)).toBe(2);
    const after = new Map((await repo.listByFunnel('f-retry')).map((r) => [r.eventId, r.nextAttemptAt]));
    expect(Object.fromEntries(after)).toEqual({
      'repo-retry-waiting': at + 100,
      'repo-retry-held': at + 60_000,
      'repo-retry-settled': at + 5_000,
      'repo-retry-later': at + 100,
      // Never failed: it keeps its own time.
      'repo-retry-fresh': at + 500,
    });
    expect((await repo.findByEventId('repo-retry-elsewhere'))?.nextAttemptAt).toBe(at + 3_600_000);
    expect(await repo.retryWaiting([], at + 100)).toBe(0);
  });

  it('never gives the same row to two connections claiming at the same time', async () => {
    const mine = createPixelRepo(t.db, dialect);
    const theirs = createPixelRepo(other?.db ?? t.db, dialect);
    const at = T0 + 2_000_000_000;
    while ((await mine.claimDue(at, 1000, 10_000_000_000)).length > 0);
    const ids = Array.from({ length: 200 }, (_, i) => `repo-race-${String(i).padStart(3, '0')}`);
    for (const id of ids) await mine.enqueue({ ...row(id, 'f-race'), nextAttemptAt: at });

    const claimed: string[] = [];
    for (let round = 0; round < 20 && claimed.length < ids.length; round++) {
      const batches = await Promise.all(
        [mine, theirs, mine, theirs, mine, theirs].map((repo) => repo.claimDue(at, 17, 60_000)),
      );
      for (const batch of batches) claimed.push(...batch.map((r) => r.eventId));
    }
    expect(claimed.length).toBe(ids.length);
    expect(new Set(claimed).size).toBe(ids.length);
    expect([...claimed].sort()).toEqual(ids);
  });

  it('keeps each lead within its limit when its calls race on two connections', async () => {
    const mine = createPixelRepo(t.db, dialect);
    const theirs = createPixelRepo(other?.db ?? t.db, dialect);
    const owner = await newAccount(t.services);
    const { funnel } = await newFunnel(t.services, owner);
    const leads = await t.services.leads.import(
      owner,
      funnel.id,
      Array.from({ length: 8 }, (_, i) => ({ name: `Lead ${String(i)}` })),
    );
    const leadIds = leads.leads.map((created) => created.lead.id);
    const event = (leadId: string, i: number, createdAt = T0) => ({
      ...row(`repo-limit-${leadId}-${String(i)}`, funnel.id, createdAt),
      accountId: owner.id,
      leadId,
      eventName: 'Lead',
    });
    const limit = { since: T0 - 1, max: 3 };
    // Every lead's calls at once, each lead's alternating between the two connections.
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        leadIds.map((leadId, j) => (i % 2 === j % 2 ? mine : theirs).enqueueForLead(event(leadId, i), limit)),
      ).flat(),
    );
    expect(outcomes.filter((o) => o === 'queued')).toHaveLength(3 * leadIds.length);
    expect(outcomes.filter((o) => o === 'limited')).toHaveLength(13 * leadIds.length);
    const stored = await mine.listByFunnel(funnel.id);
    for (const leadId of leadIds) expect(stored.filter((r) => r.leadId === leadId)).toHaveLength(3);
    expect(new Set(stored.map((r) => r.eventName))).toEqual(new Set(['Lead']));
    expect(await mine.enqueueForLead(event(leadIds[0] ?? '', 99), limit)).toBe('limited');
  });

  // SQLite runs the counting insert whole under its one writer's lock; PostgreSQL needs the lead's row.
  it.skipIf(dialect !== 'postgres')(
    'counts the event of a call still in its transaction once that one commits',
    async () => {
      const mine = createPixelRepo(t.db, dialect);
      const owner = await newAccount(t.services);
      const { funnel } = await newFunnel(t.services, owner);
      const { lead } = await t.services.leads.create(owner, funnel.id, { name: 'Rosa' });
      const event = (i: number) => ({
        ...row(`repo-held-${lead.id}-${String(i)}`, funnel.id),
        accountId: owner.id,
        leadId: lead.id,
        eventName: 'Lead',
      });
      const limit = { since: T0 - 1, max: 1 };
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let second: Promise<string> | undefined;
      // Another process's call, as enqueueForLead makes it: the lead's row locked, then its insert,
      // and the second call starts before it commits.
      await (other?.db ?? t.db).transaction().execute(async (trx) => {
        await trx.selectFrom('leads').select('id').where('id', '=', lead.id).forNoKeyUpdate().execute();
        await trx
          .insertInto('pixelOutbox')
          .values({
            ...event(1),
            attempts: 0,
            nextAttemptAt: T0,
            deliveredAt: null,
            droppedAt: null,
            lastError: null,
          })
          .execute();
        second = mine.enqueueForLead(event(2), limit);
        setTimeout(release, 300);
        await held;
      });
      expect(await second).toBe('limited');
      expect((await mine.listByFunnel(funnel.id)).map((r) => r.eventId)).toEqual([event(1).eventId]);
    },
  );

  it('answers a retry of a stored event as stored, counts only events after `since`, and each name apart', async () => {
    const repo = createPixelRepo(t.db, dialect);
    const owner = await newAccount(t.services);
    const { funnel } = await newFunnel(t.services, owner);
    const { lead } = await t.services.leads.create(owner, funnel.id, { name: 'Rosa' });
    const event = (i: number, createdAt: number, eventName = 'Lead') => ({
      ...row(`repo-window-${lead.id}-${String(i)}`, funnel.id, createdAt),
      accountId: owner.id,
      leadId: lead.id,
      eventName,
    });
    const limit = { since: T0, max: 2 };
    expect(await repo.enqueueForLead(event(1, T0), limit)).toBe('queued');
    expect(await repo.enqueueForLead(event(2, T0 + 1), limit)).toBe('queued');
    expect(await repo.enqueueForLead(event(3, T0 + 2), limit)).toBe('queued');
    expect(await repo.enqueueForLead(event(4, T0 + 3), limit)).toBe('limited');
    expect(await repo.enqueueForLead(event(2, T0 + 4), limit)).toBe('stored');
    expect(await repo.enqueueForLead(event(5, T0 + 5, 'Other'), limit)).toBe('queued');
    expect(await repo.enqueueForLead(event(6, T0 + 6), { since: T0 + 1, max: 2 })).toBe('queued');
    expect((await repo.listByFunnel(funnel.id)).map((r) => r.eventId)).toEqual(
      [1, 2, 3, 5, 6].map((i) => `repo-window-${lead.id}-${String(i)}`),
    );
  });

  it('counts rows by state', async () => {
    const repo = createPixelRepo(t.db, dialect);
    const before = await repo.counts();
    await repo.enqueue(row('repo-count-1', 'f-count'));
    await repo.enqueue(row('repo-count-2', 'f-count'));
    await repo.enqueue(row('repo-count-3', 'f-count'));
    const [a, b] = await repo.listByFunnel('f-count');
    await repo.markDelivered([a?.id ?? 0], T0);
    await repo.markDropped(b?.id ?? 0, T0, 'gone');
    expect(await repo.counts()).toEqual({
      total: before.total + 3,
      pending: before.pending + 1,
      delivered: before.delivered + 1,
      dropped: before.dropped + 1,
    });
  });
});
