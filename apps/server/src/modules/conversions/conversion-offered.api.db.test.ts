import { Funnel, Page, TrackAck } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { rowCounts } from '../../../test/fixtures';
import { api } from '../../../test/server';
import {
  PREFIXES,
  expectVisitorError,
  moveLeadTo,
  newLead,
  pageId,
  read,
  useVisitorServer,
  type Answer,
  type Prefix,
} from '../../../test/visitor';

/**
 * A conversion is stored only where the page offered it (issue 16, item 7): the offer event on an
 * OFFERT page, which the page sends when its offer button shows (use-page-actions.ts), and the
 * pre-launch conversion in a funnel in pre-launch. OFFERT conversions feed the "just bought" popups,
 * so a forged one would show a purchase nobody made.
 */

describe.each(TEST_DIALECTS)('conversions the page offered, on %s', (dialect) => {
  const h = useVisitorServer(dialect);
  const db = () => h.server.database.db;

  const offerEvent = (token: string, prefix: Prefix = '/api') =>
    api(h.server, 'POST', `${prefix}/funnel/track/event/offert`, { body: { token } });
  const prelaunch = (token: string, prefix: Prefix = '/api') =>
    api(h.server, 'POST', `${prefix}/lead/internal/conversion/prelaunch`, { body: { token } });
  const kindsOf = async (leadId: string) =>
    (await db().selectFrom('conversions').select('kind').where('leadId', '=', leadId).execute())
      .map((c) => c.kind)
      .sort();

  function ok(answer: Answer): void {
    expect(answer.status, answer.text).toBe(200);
    expect(read(TrackAck, answer)).toEqual({ codeResponse: 200, result: true, message: 'OK' });
  }

  function refused(answer: Answer, message: string): void {
    expect(expectVisitorError(answer, 409)).toMatchObject({ code: message, message });
  }

  const owner = (method: string, path: string, body: unknown) =>
    api(h.server, method, `/api/owner${path}`, { key: h.demo.apiKey, body });

  /** A new funnel of the demo owner with one OFFERT page, in pre-launch or not. */
  async function offerFunnel(isPreLaunch: boolean): Promise<Funnel> {
    const created = await owner('POST', '/funnels', { name: `Preventa ${Math.random()}`, isPreLaunch });
    expect(created.status, created.text).toBe(201);
    const funnel = read(Funnel, created);
    const page = await owner('POST', `/funnels/${funnel.id}/pages`, {
      buttonAction: 'OFFERT',
      buttonUrl: 'https://checkout.example.com/plaza',
    });
    expect(page.status, page.text).toBe(201);
    expect(read(Page, page).buttonAction).toBe('OFFERT');
    return funnel;
  }

  describe('POST /funnel/track/event/offert', () => {
    it('on a NEXT-PAGE page → 409 OFFER_NOT_ON_PAGE, nothing stored, no progress', async () => {
      const lead = await newLead(h, h.vsl.id);
      await moveLeadTo(h, lead.token, h.vsl, 1);
      const before = await rowCounts(db());
      for (const prefix of PREFIXES) refused(await offerEvent(lead.token, prefix), 'OFFER_NOT_ON_PAGE');
      expect(await rowCounts(db())).toEqual(before);
      expect(await kindsOf(lead.id)).toEqual(['VIDEO_VIEWED']);
    });

    it('a new lead, on the funnel’s first page (NEXT-PAGE), is refused too', async () => {
      const lead = await newLead(h, h.vsl.id);
      const before = await rowCounts(db());
      refused(await offerEvent(lead.token), 'OFFER_NOT_ON_PAGE');
      expect(await rowCounts(db())).toEqual(before);
    });

    it('on the OFFERT page the lead stands on → 200 and one OFFERT conversion', async () => {
      const lead = await newLead(h, h.vsl.id);
      await moveLeadTo(h, lead.token, h.vsl, 2);
      ok(await offerEvent(lead.token));
      const rows = await db()
        .selectFrom('conversions')
        .select(['kind', 'pageId'])
        .where('leadId', '=', lead.id)
        .where('kind', '=', 'OFFERT')
        .execute();
      expect(rows).toEqual([{ kind: 'OFFERT', pageId: pageId(h.vsl, 2) }]);
    });
  });

  describe('POST /lead/internal/conversion/prelaunch', () => {
    it('in a funnel not in pre-launch → 409 NOT_IN_PRELAUNCH and nothing stored', async () => {
      const lead = await newLead(h, h.vsl.id);
      await moveLeadTo(h, lead.token, h.vsl, 2);
      const before = await rowCounts(db());
      for (const prefix of PREFIXES) refused(await prelaunch(lead.token, prefix), 'NOT_IN_PRELAUNCH');
      const other = await offerFunnel(false);
      const otherLead = await newLead(h, other.id);
      const withLead = await rowCounts(db());
      refused(await prelaunch(otherLead.token), 'NOT_IN_PRELAUNCH');
      expect(await rowCounts(db())).toEqual(withLead);
      expect(before.conversions).toBe(withLead.conversions);
    });

    it('in a funnel in pre-launch → 200 and one PRELAUNCH conversion; refused again once pre-launch ends', async () => {
      const funnel = await offerFunnel(true);
      const lead = await newLead(h, funnel.id);
      ok(await prelaunch(lead.token));
      ok(await prelaunch(lead.token, ''));
      expect(await kindsOf(lead.id)).toEqual(['PRELAUNCH']);

      const patched = await owner('PATCH', `/funnels/${funnel.id}`, { isPreLaunch: false });
      expect(patched.status, patched.text).toBe(200);
      const late = await newLead(h, funnel.id);
      refused(await prelaunch(late.token), 'NOT_IN_PRELAUNCH');
      expect(await kindsOf(late.id)).toEqual([]);
    });
  });
});
