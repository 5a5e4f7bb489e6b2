import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, useServices } from '../../../test/fixtures';
import { pageSessionRow } from '../../../test/session-rows';
import type { WriteOp } from './event-writer';

/**
 * The event writer's batches against a real database: writes given in one turn of the event loop
 * commit in one batch, and what each answers is what it would answer alone.
 */
describe.each(TEST_DIALECTS)('event writer batches on %s', (dialect) => {
  const h = useServices(dialect);

  async function leadsAndPage(count: number) {
    const owner = await newAccount(h.services);
    const { funnel, pages } = await newFunnel(h.services, owner, { pages: [{ headline: 'VSL' }] });
    const page = pages[0];
    if (!page) throw new Error('no page');
    const leads = [];
    for (let i = 0; i < count; i++)
      leads.push((await h.services.leads.create(owner, funnel.id, { name: `Lead ${i}` })).lead);
    return { funnelId: funnel.id, pageId: page.id, leads };
  }

  const sessionRow = (id: string, leadId: string, funnelId: string, pageId: string, at: number) =>
    pageSessionRow({ id, leadId, funnelId, pageId, at });
  const end = (id: string, leadId: string, endAt: number, endReason: string): WriteOp => ({
    kind: 'endSession',
    id,
    leadId,
    endAt,
    endReason,
    endDetails: JSON.stringify({ reason: endReason }),
  });

  it('ends sent together change what they would change one after another, and answer the same', async () => {
    const { funnelId, pageId, leads } = await leadsAndPage(2);
    const [alice, bob] = leads.map((lead) => lead.id) as [string, string];
    const at = Date.now() - 60_000;
    const prefix = `${dialect}-${String(at)}`;
    const [open, inferred, ended, startedHere, untouched] = [
      'open',
      'inferred',
      'ended',
      'new',
      'untouched',
    ].map((name) => `${prefix}-${name}`) as [string, string, string, string, string];
    const { writer } = h.services;
    await Promise.all(
      [open, inferred, ended, untouched].map((id) =>
        writer.write({
          kind: 'insert',
          table: 'pageSessions',
          row: sessionRow(id, alice, funnelId, pageId, at),
        }),
      ),
    );
    await h.db
      .updateTable('pageSessions')
      .set({ endAt: at + 1000, endReason: 'PAGE_CLOSE', endInferred: 1 })
      .where('id', '=', inferred)
      .execute();
    expect(await writer.write(end(ended, alice, at + 2000, 'BUTTON_CLICK'))).toBe(1);

    const before = writer.stats().batches;
    // One turn: the writer takes them all in its next batch.
    const answers = await Promise.all([
      writer.write({
        kind: 'insert',
        table: 'pageSessions',
        row: sessionRow(startedHere, alice, funnelId, pageId, at),
      }),
      writer.write(end(open, bob, at + 3000, 'PAGE_CLOSE')),
      writer.write(end(open, alice, at + 4000, 'VIDEO_ENDED')),
      writer.write(end(open, alice, at + 5000, 'PAGE_CLOSE')),
      writer.write(end(inferred, alice, at + 6000, 'INACTIVITY')),
      writer.write(end(ended, alice, at + 7000, 'PAGE_CLOSE')),
      writer.write(end(startedHere, alice, at + 8000, 'BUTTON_CLICK')),
    ]);
    expect(writer.stats().batches - before).toBe(1);

    const rows = new Map(
      (
        await h.db
          .selectFrom('pageSessions')
          .select(['id', 'endAt', 'endReason', 'endInferred'])
          .where('id', 'like', `${prefix}-%`)
          .execute()
      ).map((row) => [row.id, row]),
    );
    // Another lead's end changes nothing; the lead's first end of an open session holds.
    expect(rows.get(open)).toMatchObject({ endAt: at + 4000, endReason: 'VIDEO_ENDED', endInferred: 0 });
    // A real end replaces an inferred one, never another real one.
    expect(rows.get(inferred)).toMatchObject({ endAt: at + 6000, endReason: 'INACTIVITY', endInferred: 0 });
    expect(rows.get(ended)).toMatchObject({ endAt: at + 2000, endReason: 'BUTTON_CLICK' });
    // A session started in the batch ends in it.
    expect(rows.get(startedHere)).toMatchObject({ endAt: at + 8000, endReason: 'BUTTON_CLICK' });
    expect(rows.get(untouched)).toMatchObject({ endAt: null });

    // An end that changed nothing never answers 1 (the service then reads the session); each one that
    // did answers 1 alone, and may answer 0 among others (where the service's read says it is fine).
    const [, bobs, first, second, replaced, again, own] = answers;
    expect([bobs, second, again]).toEqual([0, 0, 0]);
    for (const changed of [first, replaced, own]) expect([0, 1]).toContain(changed);
  });

  it('every end of a batch that each changes its session answers 1', async () => {
    const { funnelId, pageId, leads } = await leadsAndPage(3);
    const at = Date.now() - 60_000;
    const ids = leads.map((lead, i) => ({
      id: `${dialect}-all-${String(at)}-${String(i)}`,
      leadId: lead.id,
    }));
    await Promise.all(
      ids.map(({ id, leadId }) =>
        h.services.writer.write({
          kind: 'insert',
          table: 'pageSessions',
          row: sessionRow(id, leadId, funnelId, pageId, at),
        }),
      ),
    );
    const answers = await Promise.all(
      ids.map(({ id, leadId }, i) =>
        h.services.writer.write(end(id, leadId, at + 1000 * (i + 1), 'PAGE_CLOSE')),
      ),
    );
    expect(answers).toEqual([1, 1, 1]);
  });

  it("a batch's inserts store each row once, whatever columns it names, its text as sent", async () => {
    const { funnelId, pageId, leads } = await leadsAndPage(1);
    const leadId = leads[0]?.id ?? '';
    const at = Date.now() - 60_000;
    const id = (name: string) => `${dialect}-rows-${String(at)}-${name}`;
    const full = sessionRow(id('full'), leadId, funnelId, pageId, at);
    // No end columns named: they are left null, in a statement of its own set of columns.
    const {
      endAt: _endAt,
      endReason: _endReason,
      endDetails: _endDetails,
      ...fewer
    } = sessionRow(id('fewer'), leadId, funnelId, pageId, at + 1);
    const text = {
      ...sessionRow(id('text'), leadId, funnelId, pageId, at + 2),
      details: 'Olá 👋 "x" \\ \u00e9 {"a":[1]}',
    };
    const before = h.services.writer.stats().batches;
    const answers = await Promise.all([
      h.services.writer.write({ kind: 'insert', table: 'pageSessions', row: full }),
      h.services.writer.write({ kind: 'insert', table: 'pageSessions', row: fewer }),
      h.services.writer.write({ kind: 'insert', table: 'pageSessions', row: text }),
      // Sent twice (a retry): stored once, the first one kept.
      h.services.writer.write({ kind: 'insert', table: 'pageSessions', row: { ...full, startAt: at + 9 } }),
    ]);
    expect(h.services.writer.stats().batches - before).toBe(1);
    expect(answers).toEqual([1, 1, 1, 1]);
    const rows = await h.db
      .selectFrom('pageSessions')
      .select(['id', 'startAt', 'endAt', 'endReason', 'details'])
      .where('id', 'like', `${id('')}%`)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: id('fewer'), startAt: at + 1, endAt: null, endReason: null, details: '{}' },
      { id: id('full'), startAt: at, endAt: null, endReason: null, details: '{}' },
      {
        id: id('text'),
        startAt: at + 2,
        endAt: null,
        endReason: null,
        details: 'Olá 👋 "x" \\ \u00e9 {"a":[1]}',
      },
    ]);
  });

  it("moves a session's last_seen_at at most once a minute, and the sweep ends it at its newest record", async () => {
    const { funnelId, pageId, leads } = await leadsAndPage(1);
    const leadId = (leads[0] as { id: string }).id;
    const at = Date.now() - 2 * 60 * 60_000;
    const id = `${dialect}-touched-${String(at)}`;
    const { writer } = h.services;
    await writer.write({
      kind: 'insert',
      table: 'pageSessions',
      row: sessionRow(id, leadId, funnelId, pageId, at),
    });
    const lastSeen = async () =>
      (
        await h.db
          .selectFrom('pageSessions')
          .select('lastSeenAt')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).lastSeenAt;
    const touch = (after: number) => writer.write({ kind: 'touchSession', id, at: at + after });

    // The start wrote the session's last_seen_at: touches within a minute of it are not written.
    expect(await touch(1_000)).toBe(1);
    expect(await touch(59_999)).toBe(1);
    expect(await lastSeen()).toBe(at);
    // A minute after the last one written, the next is written; then none for a minute again.
    expect(await touch(61_000)).toBe(1);
    expect(await lastSeen()).toBe(at + 61_000);
    expect(await touch(121_000 - 1)).toBe(1);
    expect(await lastSeen()).toBe(at + 61_000);

    // A session this writer did not start (another process's): its first touch is written.
    const elsewhere = `${id}-elsewhere`;
    await h.db
      .insertInto('pageSessions')
      .values(sessionRow(elsewhere, leadId, funnelId, pageId, at))
      .execute();
    expect(await writer.write({ kind: 'touchSession', id: elsewhere, at: at + 1_000 })).toBe(1);
    expect(
      (
        await h.db
          .selectFrom('pageSessions')
          .select('lastSeenAt')
          .where('id', '=', elsewhere)
          .executeTakeFirstOrThrow()
      ).lastSeenAt,
    ).toBe(at + 1_000);

    // The session's newest record came after its last touch written: the sweep ends it there.
    await writer.write({
      kind: 'insert',
      table: 'videoRecords',
      row: {
        id: `${id}-video`,
        pageSessionId: id,
        leadId,
        startViewTime: at + 100_000,
        endViewTime: at + 101_000,
        startTimeVideo: 10,
        endTimeVideo: 11,
        details: '{}',
        receivedAt: at + 101_000,
      },
    });
    expect(await h.services.tracking.closeStaleSessions(60 * 60_000)).toBeGreaterThanOrEqual(1);
    expect(
      await h.db
        .selectFrom('pageSessions')
        .select(['endAt', 'endReason', 'endInferred'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ endAt: at + 101_000, endReason: 'PAGE_CLOSE', endInferred: 1 });
  });
});
