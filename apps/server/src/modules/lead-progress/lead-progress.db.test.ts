import type { Account, PageCreate } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, useServices } from '../../../test/fixtures';
import { currentPageIndex, type LeadContext } from './lead-progress.service';

const PAGES: PageCreate[] = [
  { headline: 'Clase 1' },
  { headline: 'Clase 2' },
  { headline: 'Oferta', buttonAction: 'OFFERT', buttonUrl: 'https://pay.example.com/checkout' },
];

/**
 * Lead progress as a visitor notices it: the page its link opens, whether that page shows as
 * complete, and where its video resumes (lastVideoSession), on both dialects.
 */
describe.each(TEST_DIALECTS)('lead progress on %s', (dialect) => {
  const t = useServices(dialect);

  async function funnelWithLead(owner?: Account) {
    const account = owner ?? (await newAccount(t.services));
    const { funnel, pages } = await newFunnel(t.services, account, { pages: PAGES });
    const { lead, token } = await t.services.leads.create(account, funnel.id, { name: 'Ana' });
    return { account, funnel, pages, lead, token, ids: pages.map((p) => p.id) };
  }

  /** What the lead's link shows: its page, completion and resume point. */
  async function shown(account: Account, token: string) {
    const { data } = await t.services.visitorPages.resolve({
      host: 'localhost',
      type: 'BASE',
      slug: account.slug,
      token,
    });
    return { pageId: data?.idPage, isComplete: data?.isComplete, lastVideoSession: data?.lastVideoSession };
  }

  async function onPage(token: string) {
    const { lead } = await t.services.progress.byToken(token);
    if (!lead?.page) throw new Error('the lead is on no page');
    return lead as LeadContext & { page: NonNullable<LeadContext['page']> };
  }

  /** Completes the lead's page now, as a conversion does: in one transaction. */
  async function complete(token: string, at: number) {
    const write = await t.services.progress.completion(await onPage(token), at);
    await t.db.transaction().execute(write);
  }

  const resumeAt = (leadId: string, pageId: string, position: number, reportedAt: number) =>
    t.services.writer.write({ kind: 'videoPosition', leadId, pageId, position, reportedAt, at: reportedAt });

  it('a new lead starts on the first page, not complete, with no resume point', async () => {
    const { account, token, ids } = await funnelWithLead();
    expect(await shown(account, token)).toEqual({
      pageId: ids[0],
      isComplete: false,
      lastVideoSession: null,
    });
  });

  it('completing a NEXT-PAGE page moves the lead on; a retried completion never skips a page', async () => {
    const { account, lead, token, ids } = await funnelWithLead();
    await complete(token, 1_000);
    expect(await shown(account, token)).toMatchObject({ pageId: ids[1], isComplete: false });
    // The page left behind keeps its first completion.
    expect((await t.services.progress.seenOn(lead.id, ids[0] ?? '', null, undefined)).isComplete).toBe(true);
    // The same completion again, now that the lead is on page 2, completes page 2 and moves once.
    await complete(token, 2_000);
    expect(await shown(account, token)).toMatchObject({ pageId: ids[2], isComplete: false });
    const stored = await t.db
      .selectFrom('leadPageProgress')
      .select(['pageId', 'completedAt'])
      .where('leadId', '=', lead.id)
      .orderBy('completedAt')
      .execute();
    expect(stored.map((r) => [r.pageId, Number(r.completedAt)])).toEqual([
      [ids[0], 1_000],
      [ids[1], 2_000],
    ]);
  });

  it('completing the OFFERT page keeps the lead there, shows it complete and closes its tracking', async () => {
    const { account, lead, token, ids } = await funnelWithLead();
    await complete(token, 1_000);
    await complete(token, 2_000);
    expect(await t.services.progress.trackingClosed(lead.id, ids[2] ?? '', 'OFFERT')).toBe(false);
    await complete(token, 3_000);
    await complete(token, 4_000);
    expect(await shown(account, token)).toMatchObject({ pageId: ids[2], isComplete: true });
    expect(await t.services.progress.trackingClosed(lead.id, ids[2] ?? '', 'OFFERT')).toBe(true);
    // A NEXT-PAGE page completed stays open to tracking.
    expect(await t.services.progress.trackingClosed(lead.id, ids[0] ?? '', 'NEXT-PAGE')).toBe(false);
    const first = await t.db
      .selectFrom('leadPageProgress')
      .select('completedAt')
      .where('leadId', '=', lead.id)
      .where('pageId', '=', ids[2] ?? '')
      .executeTakeFirst();
    expect(Number(first?.completedAt)).toBe(3_000);
  });

  it('the resume point is the video position reported last by the browser; an older one never moves it back', async () => {
    const { account, lead, token, ids } = await funnelWithLead();
    const page = ids[0] ?? '';
    await resumeAt(lead.id, page, 42.5, 10_000);
    expect((await shown(account, token)).lastVideoSession).toEqual({ endTimeVideo: 42.5 });
    await resumeAt(lead.id, page, 97.25, 20_000);
    await resumeAt(lead.id, page, 12, 15_000);
    expect((await shown(account, token)).lastVideoSession).toEqual({ endTimeVideo: 97.25 });
    // Sent together (one batch), the newest report wins whatever the order of arrival.
    await Promise.all([resumeAt(lead.id, page, 130, 40_000), resumeAt(lead.id, page, 120, 30_000)]);
    expect((await shown(account, token)).lastVideoSession).toEqual({ endTimeVideo: 130 });
    // The resume point belongs to its page: the next page starts from the beginning.
    await complete(token, 50_000);
    expect(await shown(account, token)).toMatchObject({ pageId: ids[1], lastVideoSession: null });
  });

  it("another funnel's lead is never touched", async () => {
    const a = await funnelWithLead();
    const b = await funnelWithLead(a.account);
    const bBefore = await shown(b.account, b.token);
    await resumeAt(a.lead.id, a.ids[0] ?? '', 33, 1_000);
    await complete(a.token, 2_000);
    await complete(a.token, 3_000);
    expect(await shown(a.account, a.token)).toMatchObject({ pageId: a.ids[2] });
    expect(await shown(b.account, b.token)).toEqual(bBefore);
    expect(bBefore).toEqual({ pageId: b.ids[0], isComplete: false, lastVideoSession: null });
    const bRows = await t.db
      .selectFrom('leadPageProgress')
      .select('pageId')
      .where('leadId', '=', b.lead.id)
      .execute();
    expect(bRows).toEqual([]);
    expect((await onPage(b.token)).page.id).toBe(b.ids[0]);
  });

  it('a lead whose current page is gone is on the first page', () => {
    const pages = [{ id: 'p1' }, { id: 'p2' }];
    expect(currentPageIndex(pages, 'p2')).toBe(1);
    expect(currentPageIndex(pages, 'gone')).toBe(0);
    expect(currentPageIndex(pages, null)).toBe(0);
  });
});
