import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteFile } from '../../db';
import { hashToken } from '../../lib/tokens';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel } from '../../../test/fixtures';
import { api } from '../../../test/server';
import { expectRefusal, startSession, startedSession, useVisitorServer } from '../../../test/visitor';

/**
 * What visitor calls check (the lead a token names, its account's status, its session, the page's
 * action and whether the lead completed it) is kept in memory between calls (decision 42). Here each
 * kind of change is made on a connection of its own, as another process or the CLI would, after
 * calls that had the server keep what they read: the next call answers from the change, on each
 * database.
 */
describe.each(TEST_DIALECTS)('visitor checks kept in memory on %s', (dialect) => {
  const h = useVisitorServer(dialect);
  /** Runs SQL (`?` placeholders) on a connection that is not the server's. */
  let other: (text: string, ...values: (string | number | null)[]) => Promise<void>;
  let closeOther: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    const { database } = h.server;
    if (dialect === 'sqlite') {
      const connection = new SQLite(sqliteFile(database.url));
      connection.pragma('busy_timeout = 5000');
      other = (text, ...values) => {
        connection.prepare(text).run(...values);
        return Promise.resolve();
      };
      closeOther = () => {
        connection.close();
        return Promise.resolve();
      };
      return;
    }
    const client = new pg.Client({
      connectionString: database.url,
      options: `-c search_path=${database.schema ?? 'public'}`,
    });
    await client.connect();
    other = async (text, ...values) => {
      let n = 0;
      await client.query(
        text.replace(/\?/g, () => `$${String(++n)}`),
        values,
      );
    };
    closeOther = () => client.end();
  });
  afterAll(() => closeOther());

  /** A fresh active account with a funnel of two pages, a lead on the first, and a started session. */
  async function visiting(firstAction: 'NEXT-PAGE' | 'OFFERT' = 'NEXT-PAGE') {
    const { services } = h.server;
    const owner = await newAccount(services);
    const { funnel, pages } = await newFunnel(services, owner, {
      pages: [
        firstAction === 'OFFERT'
          ? { buttonAction: 'OFFERT', buttonUrl: 'https://checkout.example.com/plaza' }
          : { buttonAction: 'NEXT-PAGE' },
        { buttonAction: 'NEXT-PAGE' },
      ],
    });
    const created = await services.leads.create(owner, funnel.id, { name: 'Rosa' });
    const page = pages[0];
    if (!page) throw new Error('the funnel has no page');
    const token = created.token;
    const session = await startedSession(h, token);
    return { owner, funnel, page, lead: created.lead, token, session };
  }

  let sent = 0;
  const video = (token: string, session: string) =>
    api(h.server, 'POST', '/api/funnel/track/video', {
      body: {
        token,
        eventId: `kept-${dialect}-${String(++sent).padStart(6, '0')}`,
        idTrackingPageSession: session,
        startViewTime: Date.now() - 5_000,
        endViewTime: Date.now(),
        startTimeVideo: 10,
        endTimeVideo: 15,
        details: { state: 'PAUSE', videoDuration: 600, reproductionTime: 5_000 },
      },
    });
  const stored = async (token: string, session: string) => {
    const answer = await video(token, session);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ result: true, message: 'OK' });
  };
  const recordsOf = async (session: string) =>
    (
      await h.server.database.db
        .selectFrom('videoRecords')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('pageSessionId', '=', session)
        .executeTakeFirstOrThrow()
    ).n;

  /** The lead's page marked complete by another connection, as another process's call would. */
  const completedElsewhere = (leadId: string, pageId: string) => {
    const at = Date.now();
    return other(
      'insert into lead_page_progress (lead_id, page_id, completed_at, last_video_position, last_video_at, updated_at) ' +
        'values (?, ?, ?, null, null, ?) on conflict (lead_id, page_id) do update set completed_at = excluded.completed_at',
      leadId,
      pageId,
      at,
      at,
    );
  };

  it("an account's lapsed subscription refuses the next call of a session and the next start", async () => {
    const { owner, token, session } = await visiting();
    await stored(token, session);
    await stored(token, session);
    await other('update accounts set subscription_status = ? where id = ?', 'inactive', owner.id);
    expectRefusal(await video(token, session), 403, 'INACTIVE_SUBSCRIPTION');
    expectRefusal(await startSession(h, token), 403, 'INACTIVE_SUBSCRIPTION');
    expect(Number(await recordsOf(session))).toBe(2);
    // Active again: taken again.
    await other('update accounts set subscription_status = ? where id = ?', 'active', owner.id);
    await stored(token, session);
  });

  it('a page completed elsewhere closes tracking on an OFFERT page at the next call', async () => {
    const { lead, page, token, session } = await visiting('OFFERT');
    await stored(token, session);
    await completedElsewhere(lead.id, page.id);
    const answer = await video(token, session);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ result: false, message: 'TRACKING_CLOSED' });
    expect(Number(await recordsOf(session))).toBe(1);
  });

  it('a page made an OFFERT page after the lead completed it closes tracking at the next call', async () => {
    const { lead, page, token, session } = await visiting('NEXT-PAGE');
    await completedElsewhere(lead.id, page.id);
    // A completed NEXT-PAGE page still takes tracking.
    await stored(token, session);
    await other('update pages set button_action = ? where id = ?', 'OFFERT', page.id);
    expect((await video(token, session)).body).toMatchObject({ result: false, message: 'TRACKING_CLOSED' });
  });

  it("a lead's new link refuses the old one's calls, and the new one is taken", async () => {
    const { lead, token, session } = await visiting();
    await stored(token, session);
    const newToken = `${token.slice(0, -4)}zzzz`;
    await other('update leads set token_hash = ? where id = ?', hashToken(newToken), lead.id);
    expectRefusal(await video(token, session), 404, 'DONT_EXIST_TOKEN_OR_URL');
    expectRefusal(await startSession(h, token), 404, 'DONT_EXIST_TOKEN_OR_URL');
    await stored(newToken, session);
  });

  it('a deleted lead and a deleted session take nothing more', async () => {
    const first = await visiting();
    await stored(first.token, first.session);
    await other('delete from page_sessions where id = ?', first.session);
    expectRefusal(await video(first.token, first.session), 404, 'SESSION_NOT_FOUND');

    const second = await visiting();
    await stored(second.token, second.session);
    await other('delete from leads where id = ?', second.lead.id);
    expectRefusal(await video(second.token, second.session), 404, 'DONT_EXIST_TOKEN_OR_URL');
    expect(Number(await recordsOf(second.session))).toBe(1);
  });

  it('keeps what it read: a change made with the triggers bypassed is not seen', async () => {
    // What the other tests show holds because the change was heard, not because every call reads.
    // Kept from the start's own checks: the first record reads nothing either.
    const { owner, token, session } = await visiting();
    if (dialect === 'sqlite') {
      await other('update accounts set subscription_status = ? where id = ?', 'inactive', owner.id);
      await other('delete from visitor_context_changes');
    } else {
      await other(
        "select set_config('session_replication_role', 'replica', false) where ? = ?",
        'bypass',
        'bypass',
      );
      await other('update accounts set subscription_status = ? where id = ?', 'inactive', owner.id);
      await other("select set_config('session_replication_role', 'origin', false) where ? = ?", 'a', 'a');
    }
    await stored(token, session);
    // Once any page changes, nothing kept is used: refused.
    const elsewhere = await visiting();
    await other('update pages set button_action = ? where id = ?', 'OFFERT', elsewhere.page.id);
    expectRefusal(await video(token, session), 403, 'INACTIVE_SUBSCRIPTION');
  });

  it.runIf(dialect === 'postgres')(
    'uses nothing kept while the connection that hears the changes is down, and is back after it',
    async () => {
      const { owner, token, session } = await visiting();
      await stored(token, session);
      await other("select set_config('session_replication_role', 'replica', false) where ? = ?", 'a', 'a');
      await other('update accounts set subscription_status = ? where id = ?', 'inactive', owner.id);
      await other("select set_config('session_replication_role', 'origin', false) where ? = ?", 'a', 'a');
      // Every listening connection of this database (other test files' too: they only read again).
      await other(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() ' +
          'and pid <> pg_backend_pid() and query in (?, ?)',
        'select 1',
        'listen embudo_visitor_context',
      );
      expectRefusal(await video(token, session), 403, 'INACTIVE_SUBSCRIPTION');
      // Listening again within seconds: changes are heard, and what is read is kept again.
      await other('update accounts set subscription_status = ? where id = ?', 'active', owner.id);
      await stored(token, session);
      await new Promise((done) => setTimeout(done, 1_500));
      await stored(token, session);
      await other('update accounts set subscription_status = ? where id = ?', 'inactive', owner.id);
      expectRefusal(await video(token, session), 403, 'INACTIVE_SUBSCRIPTION');
    },
  );
});
