import { Funnel, Page, SuccessAnswer, TrackAck } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { rowCounts } from '../../../test/fixtures';
import { api } from '../../../test/server';
import {
  PREFIXES,
  completePage,
  expectRefusal,
  expectVisitorError,
  moveLeadTo,
  newLead,
  openSite,
  pageId,
  previewTokenOf,
  read,
  useVisitorServer,
  type Answer,
  type Prefix,
} from '../../../test/visitor';

/**
 * Video viewed, the offer event, the prelaunch conversion and the lead's IP (visitor-behaviour §7) with the lead
 * progress they drive (architecture §5.3), against a real server: answers and database rows.
 */

describe.each(TEST_DIALECTS)('visitor conversions API on %s', (dialect) => {
  const h = useVisitorServer(dialect);
  const db = () => h.server.database.db;

  const conversionsOf = (leadId: string) =>
    db().selectFrom('conversions').selectAll().where('leadId', '=', leadId).orderBy('createdAt').execute();
  const kindsOf = async (leadId: string) => (await conversionsOf(leadId)).map((c) => c.kind).sort();
  const progressOf = (leadId: string, page: string) =>
    db()
      .selectFrom('leadPageProgress')
      .selectAll()
      .where('leadId', '=', leadId)
      .where('pageId', '=', page)
      .executeTakeFirst();
  async function leadRow(leadId: string) {
    const row = await db().selectFrom('leads').selectAll().where('id', '=', leadId).executeTakeFirst();
    if (!row) throw new Error(`no lead ${leadId}`);
    return row;
  }

  const offerEvent = (token: string, prefix: Prefix = '/api') =>
    api(h.server, 'POST', `${prefix}/funnel/track/event/offert`, { body: { token } });
  const prelaunch = (token: string, prefix: Prefix = '/api') =>
    api(h.server, 'POST', `${prefix}/lead/internal/conversion/prelaunch`, { body: { token } });
  const leadIp = (token: string, ip: string, prefix: Prefix = '/api') =>
    api(h.server, 'POST', `${prefix}/funnel/lead/ip`, { body: { token, ip } });

  function ack(answer: Answer, message = 'OK'): void {
    expect(answer.status, answer.text).toBe(200);
    expect(read(TrackAck, answer)).toEqual({ codeResponse: 200, result: true, message });
  }

  describe('PUT /funnel/site/complete', () => {
    it.each(PREFIXES)(
      '%s/funnel/site/complete on page 1 stores VIDEO_VIEWED and moves the lead to page 2',
      async (prefix) => {
        const lead = await newLead(h, h.vsl.id, 'Olga');
        const first = pageId(h.vsl, 0);
        ack(await completePage(h, lead.token, first, prefix));

        const conversions = await conversionsOf(lead.id);
        expect(conversions).toHaveLength(1);
        expect(conversions[0]).toMatchObject({ kind: 'VIDEO_VIEWED', pageId: first, funnelId: h.vsl.id });
        expect((await progressOf(lead.id, first))?.completedAt).toEqual(expect.any(Number));
        expect((await leadRow(lead.id)).currentPageId).toBe(pageId(h.vsl, 1));

        const site = await openSite(h, lead.token, prefix);
        expect(site.data).toMatchObject({
          idPage: pageId(h.vsl, 1),
          isComplete: false,
          lead: { name: 'Olga' },
        });
      },
    );

    it('a retry naming page 1 after the move answers PAGE_ALREADY_LEFT and does not move the lead again', async () => {
      const lead = await newLead(h, h.vsl.id);
      const first = pageId(h.vsl, 0);
      ack(await completePage(h, lead.token, first));
      for (const prefix of PREFIXES)
        ack(await completePage(h, lead.token, first, prefix), 'PAGE_ALREADY_LEFT');
      expect((await leadRow(lead.id)).currentPageId).toBe(pageId(h.vsl, 1));
      expect((await openSite(h, lead.token)).data?.idPage).toBe(pageId(h.vsl, 1));
      expect(await kindsOf(lead.id)).toEqual(['VIDEO_VIEWED']);
      expect(await progressOf(lead.id, pageId(h.vsl, 1))).toBeUndefined();
    });

    it('the same call sent twice at once moves the lead one page only', async () => {
      const lead = await newLead(h, h.vsl.id);
      const first = pageId(h.vsl, 0);
      const answers = await Promise.all([
        completePage(h, lead.token, first),
        completePage(h, lead.token, first),
      ]);
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      expect((await leadRow(lead.id)).currentPageId).toBe(pageId(h.vsl, 1));
      expect(await kindsOf(lead.id)).toEqual(['VIDEO_VIEWED']);
    });

    it('on the last page (OFFERT) isComplete becomes true and stays', async () => {
      const lead = await newLead(h, h.vsl.id);
      await moveLeadTo(h, lead.token, h.vsl, 2);
      const offer = pageId(h.vsl, 2);
      expect((await openSite(h, lead.token)).data).toMatchObject({ idPage: offer, isComplete: false });

      ack(await completePage(h, lead.token, offer));
      const completedAt = (await progressOf(lead.id, offer))?.completedAt;
      expect(completedAt).toEqual(expect.any(Number));
      expect((await openSite(h, lead.token)).data).toMatchObject({
        idPage: offer,
        buttonAction: 'OFFERT',
        isComplete: true,
      });

      // Again, with and without the page id, and after the offer event: still the last page, complete.
      ack(await completePage(h, lead.token, offer, ''));
      ack(await completePage(h, lead.token));
      ack(await offerEvent(lead.token));
      for (const prefix of PREFIXES) {
        expect((await openSite(h, lead.token, prefix)).data).toMatchObject({
          idPage: offer,
          isComplete: true,
        });
      }
      expect((await progressOf(lead.id, offer))?.completedAt).toBe(completedAt);
      expect((await leadRow(lead.id)).currentPageId).toBe(offer);
      expect(await kindsOf(lead.id)).toEqual(['OFFERT', 'VIDEO_VIEWED', 'VIDEO_VIEWED', 'VIDEO_VIEWED']);
    });
  });

  describe('POST /funnel/track/event/offert', () => {
    it.each(PREFIXES)(
      '%s/funnel/track/event/offert stores one OFFERT conversion even when sent twice',
      async (prefix) => {
        const lead = await newLead(h, h.vsl.id);
        await moveLeadTo(h, lead.token, h.vsl, 2);
        const before = await kindsOf(lead.id);
        ack(await offerEvent(lead.token, prefix));
        ack(await offerEvent(lead.token, prefix));
        const offers = (await conversionsOf(lead.id)).filter((c) => c.kind === 'OFFERT');
        expect(offers).toHaveLength(1);
        expect(offers[0]).toMatchObject({ pageId: pageId(h.vsl, 2), funnelId: h.vsl.id });
        expect(await kindsOf(lead.id)).toEqual([...before, 'OFFERT'].sort());
        // The offer button completes the OFFERT page: tracking stops there (visitor-behaviour §5).
        expect((await openSite(h, lead.token)).data?.isComplete).toBe(true);
      },
    );
  });

  describe('POST /lead/internal/conversion/prelaunch', () => {
    /** A funnel of the demo owner in pre-launch, with a NEXT-PAGE page and an OFFERT page. */
    async function prelaunchFunnel(): Promise<{ id: string; pages: string[] }> {
      const owner = (path: string, body: unknown) =>
        api(h.server, 'POST', `/api/owner${path}`, { key: h.demo.apiKey, body });
      const created = await owner('/funnels', { name: `Preventa ${Math.random()}`, isPreLaunch: true });
      expect(created.status, created.text).toBe(201);
      const funnel = read(Funnel, created);
      const pages: string[] = [];
      for (const page of [
        { buttonAction: 'NEXT-PAGE' },
        { buttonAction: 'OFFERT', buttonUrl: 'https://checkout.example.com/plaza' },
      ]) {
        const answer = await owner(`/funnels/${funnel.id}/pages`, page);
        expect(answer.status, answer.text).toBe(201);
        pages.push(read(Page, answer).id);
      }
      return { id: funnel.id, pages };
    }

    it.each(PREFIXES)(
      '%s/lead/internal/conversion/prelaunch stores one PRELAUNCH conversion per lead',
      async (prefix) => {
        const funnel = await prelaunchFunnel();
        const [a, b] = [await newLead(h, funnel.id), await newLead(h, funnel.id)];
        for (const lead of [a, b, a, b]) ack(await prelaunch(lead.token, prefix));
        // Even from another page later on: once per lead and funnel.
        ack(await completePage(h, a.token, funnel.pages[0]));
        ack(await prelaunch(a.token, prefix));
        for (const lead of [a, b]) {
          const rows = (await conversionsOf(lead.id)).filter((c) => c.kind === 'PRELAUNCH');
          expect(rows).toHaveLength(1);
          expect(rows[0]?.funnelId).toBe(funnel.id);
        }
        // A prelaunch conversion does not complete or move anything.
        expect((await leadRow(b.id)).currentPageId).toBe(funnel.pages[0]);
        expect(await progressOf(b.id, funnel.pages[0] ?? '')).toBeUndefined();
      },
    );
  });

  describe('POST /funnel/lead/ip', () => {
    it.each(PREFIXES)(
      '%s/funnel/lead/ip with a valid address stores the connection’s in leads.lastIp, not the body’s',
      async (prefix) => {
        const lead = await newLead(h, h.vsl.id);
        for (const ip of ['203.0.113.7', '2001:db8::1']) {
          const answer = await leadIp(lead.token, ip, prefix);
          expect(answer.status, answer.text).toBe(200);
          expect(read(SuccessAnswer, answer).success).toBe(true);
          const row = await leadRow(lead.id);
          // http/client-address.test.ts: the same behind a trusted proxy.
          expect(row.lastIp).toBe('127.0.0.1');
          expect(row.lastIpAt).toEqual(expect.any(Number));
        }
      },
    );

    it.each([
      { name: 'not-an-ip', token: 'lead', ip: 'not-an-ip' },
      { name: 'an address with a port', token: 'lead', ip: '203.0.113.7:443' },
      { name: 'an unknown token', token: 'unknown', ip: '198.51.100.4' },
      { name: 'a preview token', token: 'preview', ip: '198.51.100.4' },
    ])('answers success false for $name and stores nothing', async ({ token, ip }) => {
      const lead = await newLead(h, h.vsl.id);
      const tokens: Record<string, string> = {
        lead: lead.token,
        unknown: 'q'.repeat(32),
        preview: previewTokenOf(h.vsl),
      };
      const before = await rowCounts(db());
      for (const prefix of PREFIXES) {
        const answer = await leadIp(tokens[token] ?? '', ip, prefix);
        expect(answer.status, answer.text).toBe(200);
        expect(read(SuccessAnswer, answer).success).toBe(false);
      }
      expect(await rowCounts(db())).toEqual(before);
      expect(await leadRow(lead.id)).toMatchObject({ lastIp: null, lastIpAt: null });
    });
  });

  describe('refused calls write nothing', () => {
    const CALLS: { name: string; send: (token: string, prefix: Prefix) => Promise<Answer> }[] = [
      { name: 'video viewed', send: (token, prefix) => completePage(h, token, undefined, prefix) },
      { name: 'offer event', send: (token, prefix) => offerEvent(token, prefix) },
      { name: 'prelaunch', send: (token, prefix) => prelaunch(token, prefix) },
    ];

    it.each(CALLS)(
      '$name with an unknown or a preview token → 404, result false, no rows',
      async ({ send }) => {
        const before = await rowCounts(db());
        for (const prefix of PREFIXES) {
          for (const token of ['w'.repeat(32), previewTokenOf(h.vsl)]) {
            expectRefusal(await send(token, prefix), 404, 'DONT_EXIST_TOKEN_OR_URL');
          }
        }
        expect(await rowCounts(db())).toEqual(before);
      },
    );

    it.each(CALLS)('$name without a token → 400 with the envelope naming body.token', async ({ name }) => {
      const path = {
        'video viewed': ['PUT', '/funnel/site/complete'],
        'offer event': ['POST', '/funnel/track/event/offert'],
        prelaunch: ['POST', '/lead/internal/conversion/prelaunch'],
      }[name];
      if (!path) throw new Error(name);
      const [method = 'POST', route = ''] = path;
      const before = await rowCounts(db());
      for (const prefix of PREFIXES) {
        for (const body of [{}, { token: 12 }, { token: '' }]) {
          const error = expectVisitorError(await api(h.server, method, `${prefix}${route}`, { body }), 400);
          expect(error.issues?.map((i) => i.path)).toContain('body.token');
        }
      }
      expect(await rowCounts(db())).toEqual(before);
    });

    it('lead ip without an ip → 400 with the envelope', async () => {
      const lead = await newLead(h, h.vsl.id);
      for (const prefix of PREFIXES) {
        const answer = await api(h.server, 'POST', `${prefix}/funnel/lead/ip`, {
          body: { token: lead.token },
        });
        expect(expectVisitorError(answer, 400).issues?.map((i) => i.path)).toContain('body.ip');
      }
    });

    it('a 404 is an ApiError like every other error: statusCode and code beside the envelope', async () => {
      for (const { send } of CALLS) expectVisitorError(await send('w'.repeat(32), '/api'), 404);
    });
  });
});
