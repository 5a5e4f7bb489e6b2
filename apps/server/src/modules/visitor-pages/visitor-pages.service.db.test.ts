import type { Account, FunnelCreate, PageCreate, SiteResponse } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import {
  addVerifiedDomain,
  BASE_DOMAINS,
  markDomainVerified,
  newAccount,
  newFunnel,
  rowCounts,
  useServices,
} from '../../../test/fixtures';

const DAY_MS = 24 * 60 * 60 * 1000;
import { createRepos } from '../../services';
import { createVisitorPagesService } from './visitor-pages.service';

const HOUR = 3_600_000;
const CHECKOUT = 'https://pay.example.com/checkout';

const THREE_PAGES: PageCreate[] = [
  { headline: '<strong>Clase 1</strong>', buttonTime: { hours: 0, minutes: 1, seconds: 30 } },
  { headline: 'Clase 2', buttonBgColor: '#123456' },
  { headline: 'Oferta', buttonAction: 'OFFERT', buttonUrl: CHECKOUT, buttonBgColor: '#654321' },
];

const message = (response: SiteResponse) => response.message;

describe.each(TEST_DIALECTS)('site resolution on %s', (dialect) => {
  const t = useServices(dialect);

  /** An account with one funnel of these pages and one lead on its first page. */
  async function funnelWithLead(
    options: { funnel?: Partial<FunnelCreate>; pages?: PageCreate[]; owner?: Account } = {},
  ) {
    const owner = options.owner ?? (await newAccount(t.services));
    const { funnel, pages } = await newFunnel(t.services, owner, {
      funnel: { language: 'pt', ...options.funnel },
      pages: options.pages ?? THREE_PAGES,
    });
    const { lead, token } = await t.services.leads.create(owner, funnel.id, { name: 'Ana' });
    return { owner, funnel, pages, lead, token };
  }

  const resolveBase = (slug: string, token: string) =>
    t.services.visitorPages.resolve({ host: 'localhost', type: 'BASE', slug, token });

  /** The site service as it would answer at another moment. */
  const siteAt = (at: number) =>
    createVisitorPagesService({
      ...createRepos(t.database),
      domains: t.services.domains,
      progress: t.services.progress,
      secret: t.services.secret,
      baseDomains: BASE_DOMAINS,
      now: () => at,
    });

  const moveLead = (leadId: string, pageId: string | undefined) =>
    t.db
      .updateTable('leads')
      .set({ currentPageId: pageId ?? null })
      .where('id', '=', leadId)
      .execute();

  it('finds the lead’s current page by slug and token', async () => {
    const { owner, funnel, pages, token } = await funnelWithLead();
    const response = await resolveBase(owner.slug, token);
    expect(response).toMatchObject({ codeResponse: 200, result: true, message: 'PAGE_FOUNDED' });
    expect(response.data).toMatchObject({
      idPage: pages[0]?.id,
      idFunnel: funnel.id,
      headline: '<strong>Clase 1</strong>',
      lead: { name: 'Ana' },
      language: 'pt',
      buttonTime: { hours: 0, minutes: 1, seconds: 30 },
      action: { method: 'NEXT-PAGE', url: null, nextPreviewPageToken: null },
      previewToken: null,
    });
  });

  it('an offer page opens its checkout in a window', async () => {
    const { owner, pages, lead, token } = await funnelWithLead();
    await moveLead(lead.id, pages[2]?.id);
    const { data } = await resolveBase(owner.slug, token);
    expect(data).toMatchObject({ headline: 'Oferta', action: { method: 'OPEN-WINDOW', url: CHECKOUT } });
  });

  it('the slug is matched without regard to case', async () => {
    const { owner, token } = await funnelWithLead();
    expect(message(await resolveBase(owner.slug.toUpperCase(), token))).toBe('PAGE_FOUNDED');
  });

  it('a wrong slug, an unknown token or another account’s token finds nothing', async () => {
    const { owner, token } = await funnelWithLead();
    const other = await funnelWithLead();
    for (const [slug, tok] of [
      ['no-such-account', token],
      [other.owner.slug, token],
      [owner.slug, 'unknown-token-aaaaaaaaaaaaaaaa'],
      [owner.slug, other.token],
    ] as const) {
      const response = await resolveBase(slug, tok);
      expect(response, `${slug} ${tok}`).toEqual({
        codeResponse: 404,
        result: false,
        message: 'DONT_EXIST_TOKEN_OR_URL',
        data: null,
      });
    }
    const noSlug = await t.services.visitorPages.resolve({
      host: 'localhost',
      type: 'BASE',
      slug: null,
      token,
    });
    expect(message(noSlug)).toBe('DONT_EXIST_TOKEN_OR_URL');
  });

  it('an inactive account’s pages answer INACTIVE_SUBSCRIPTION', async () => {
    const { owner, token } = await funnelWithLead();
    await t.services.accounts.setSubscription(owner.id, 'inactive');
    expect(await resolveBase(owner.slug, token)).toMatchObject({
      codeResponse: 403,
      result: false,
      message: 'INACTIVE_SUBSCRIPTION',
      data: null,
    });
    await t.services.accounts.setSubscription(owner.id, 'active');
    expect(message(await resolveBase(owner.slug, token))).toBe('PAGE_FOUNDED');
  });

  it('a connected domain finds its account’s leads once verified; an unknown host finds nothing', async () => {
    const { owner, token, lead } = await funnelWithLead();
    const other = await funnelWithLead();
    const host = `promo-${owner.slug}.example.com`;
    await t.services.domains.create(owner, { host });
    const custom = (h: string, tok: string) =>
      t.services.visitorPages.resolve({ host: h, type: 'CUSTOM', token: tok });
    // Added but not verified yet: whoever typed the host has proved nothing (decision 27).
    expect(message(await custom(host, token))).toBe('DONT_EXIST_TOKEN_OR_URL');
    await markDomainVerified(t.db, host);

    const found = await custom(host, token);
    expect(found.message).toBe('PAGE_FOUNDED');
    expect(found.data?.lead.name).toBe(lead.name);
    expect(message(await custom('unknown.example.com', token))).toBe('DONT_EXIST_TOKEN_OR_URL');
    expect(message(await custom(host, other.token))).toBe('DONT_EXIST_TOKEN_OR_URL');
  });

  it('a verified domain whose records are gone serves for 7 days, then stops', async () => {
    const { owner, token } = await funnelWithLead();
    const host = `lapsing-${owner.slug}.example.com`;
    await addVerifiedDomain(t.services, t.db, owner, host);
    const custom = () => t.services.visitorPages.resolve({ host, type: 'CUSTOM', token });
    const failingFor = (days: number) =>
      t.db
        .updateTable('domains')
        .set({ state: 'failing', failure: 'TXT_MISSING', failingSince: Date.now() - days * DAY_MS })
        .where('host', '=', host)
        .execute();
    await failingFor(6.9);
    expect(message(await custom())).toBe('PAGE_FOUNDED');
    await failingFor(7.1);
    expect(message(await custom())).toBe('DONT_EXIST_TOKEN_OR_URL');
  });

  it('a lead whose current page was deleted sees the first page', async () => {
    const { owner, pages, lead, token } = await funnelWithLead();
    await moveLead(lead.id, pages[1]?.id);
    expect((await resolveBase(owner.slug, token)).data?.idPage).toBe(pages[1]?.id);
    await t.services.pages.remove(owner, pages[1]?.id ?? '');
    expect((await resolveBase(owner.slug, token)).data?.idPage).toBe(pages[0]?.id);
  });

  it('the countdown runs from the lead’s own deadline and expires after it', async () => {
    const { owner, lead, token } = await funnelWithLead({
      funnel: { deadline: { mode: 'afterLeadCreated', hours: 48 } },
    });
    const deadline = Date.parse(lead.createdAt) + 48 * HOUR;
    const lookup = { host: 'localhost', type: 'BASE', slug: owner.slug, token } as const;

    const before = await siteAt(deadline - 1000).resolve(lookup);
    expect(before.data).toMatchObject({ countDownTime: new Date(deadline).toISOString(), isExpired: false });
    const after = await siteAt(deadline + 1000).resolve(lookup);
    expect(after.data).toMatchObject({ countDownTime: new Date(deadline).toISOString(), isExpired: true });
  });

  it('a fixed deadline is read live from the funnel', async () => {
    const at = '2031-05-01T12:00:00.000Z';
    const { owner, funnel, token } = await funnelWithLead({ funnel: { deadline: { mode: 'fixed', at } } });
    expect((await resolveBase(owner.slug, token)).data).toMatchObject({
      countDownTime: at,
      isExpired: false,
    });
    const moved = '2020-01-01T00:00:00.000Z';
    await t.services.funnels.update(owner, funnel.id, { deadline: { mode: 'fixed', at: moved } });
    expect((await resolveBase(owner.slug, token)).data).toMatchObject({
      countDownTime: moved,
      isExpired: true,
    });
  });

  it('without a deadline there is no countdown', async () => {
    const { owner, token } = await funnelWithLead();
    expect((await resolveBase(owner.slug, token)).data).toMatchObject({
      countDownTime: null,
      isExpired: false,
    });
  });

  it('isDeadlineExceptionOn comes from the lead’s override, else from the funnel', async () => {
    for (const funnelValue of [true, false]) {
      const { owner, funnel } = await funnelWithLead({ funnel: { isDeadlineExceptionOn: funnelValue } });
      for (const leadValue of [null, true, false]) {
        const { token } = await t.services.leads.create(owner, funnel.id, {
          name: 'Bruno',
          deadlineExceptionOn: leadValue,
        });
        const { data } = await resolveBase(owner.slug, token);
        expect(data?.isDeadlineExceptionOn, `funnel ${funnelValue}, lead ${leadValue}`).toBe(
          leadValue ?? funnelValue,
        );
      }
    }
  });

  it('the account’s WhatsApp button colour applies to WhatsApp pages only', async () => {
    const owner = await newAccount(t.services, { lpiButtonBgColor: '#25d366' });
    const { pages, lead, token } = await funnelWithLead({
      owner,
      pages: [
        {
          buttonAction: 'LPI-REDIRECT-WPP',
          buttonUrl: 'https://wa.me/5215512345678',
          buttonBgColor: '#111111',
        },
        ...THREE_PAGES,
      ],
    });
    const colourOn = async (index: number) => {
      await moveLead(lead.id, pages[index]?.id);
      return (await resolveBase(owner.slug, token)).data?.buttonBgColor;
    };
    expect(await colourOn(0)).toBe('#25d366');
    expect(await colourOn(2)).toBe('#123456');
    expect(await colourOn(3)).toBe('#654321');

    const plain = await funnelWithLead({
      pages: [{ buttonAction: 'LPI-REDIRECT-WPP', buttonBgColor: '#111111' }],
    });
    expect((await resolveBase(plain.owner.slug, plain.token)).data?.buttonBgColor).toBe('#111111');
  });

  it('writes each answer as JSON.stringify would, whatever the lead and the page', async () => {
    const owner = await newAccount(t.services, {
      lpiButtonBgColor: '#25d366',
      contactEmail: 'ana@example.com',
    });
    const { funnel, pages } = await newFunnel(t.services, owner, {
      funnel: { deadline: { mode: 'afterLeadCreated', hours: 48 }, isDeadlineExceptionOn: true },
      pages: [{ buttonAction: 'LPI-REDIRECT-WPP', buttonUrl: 'https://wa.me/5215512345678' }, ...THREE_PAGES],
    });
    const answers: { object: SiteResponse; json: string }[] = [];
    const both = async (token: string) => {
      const lookup = { host: 'localhost', type: 'BASE', slug: owner.slug, token } as const;
      answers.push({
        object: await t.services.visitorPages.resolve(lookup),
        json: await t.services.visitorPages.resolveJson(lookup),
      });
    };
    for (const [index, page] of pages.entries()) {
      const { lead, token } = await t.services.leads.create(owner, funnel.id, {
        name: `Lead “${String(index)}” <b>`,
        deadlineExceptionOn: index % 2 === 0 ? null : false,
      });
      await moveLead(lead.id, page.id);
      await both(token);
      // The same page again for another lead, from the kept page part.
      const other = await t.services.leads.create(owner, funnel.id, { name: 'Otro' });
      await moveLead(other.lead.id, page.id);
      await both(other.token);
    }
    await both('no-such-token');
    for (const { object, json } of answers) {
      const written: unknown = JSON.parse(json);
      expect(written).toEqual(JSON.parse(JSON.stringify(object)));
    }
    expect(answers.at(-1)?.object.message).toBe('DONT_EXIST_TOKEN_OR_URL');
    expect(new Set(answers.map((a) => a.object.data?.lead.name)).size).toBe(pages.length + 2);
  });

  describe('previews', () => {
    const resolvePreview = (token: string, host = 'localhost') =>
      t.services.visitorPages.resolvePreview({ host, token });

    it('open each page of the chain in turn, the last with no next token', async () => {
      const { owner, pages } = await funnelWithLead();
      const { token } = await t.services.previews.create(owner, pages[0]?.id ?? '');
      const seen: (string | undefined)[] = [];
      let next: string | null = token;
      while (next !== null && seen.length < 10) {
        const response = await resolvePreview(next);
        expect(response.message).toBe('PAGE_FOUNDED');
        expect(response.data?.previewToken).toBe(next);
        seen.push(response.data?.idPage);
        next = response.data?.action.nextPreviewPageToken ?? null;
      }
      expect(seen).toEqual(pages.map((p) => p.id));
    });

    it('a preview of a later page starts there', async () => {
      const { owner, pages } = await funnelWithLead();
      const { token } = await t.services.previews.create(owner, pages[2]?.id ?? '');
      const { data } = await resolvePreview(token);
      expect(data).toMatchObject({ idPage: pages[2]?.id, headline: 'Oferta', lead: { name: '' } });
      expect(data?.action.nextPreviewPageToken).toBeNull();
    });

    it('a next-page token offered for a page added after the preview opens that page', async () => {
      const { owner, funnel, pages } = await funnelWithLead();
      const { token } = await t.services.previews.create(owner, pages[2]?.id ?? '');
      const added = await t.services.pages.create(owner, funnel.id, { headline: 'Bonus' });
      const next = (await resolvePreview(token)).data?.action.nextPreviewPageToken ?? null;
      const opened = next === null ? 'no next page' : (await resolvePreview(next)).data?.idPage;
      expect(opened).toBeOneOf(['no next page', added.id]);
    });

    it('an expired preview finds nothing', async () => {
      const { owner, pages } = await funnelWithLead();
      const created = await t.services.previews.create(owner, pages[0]?.id ?? '', { ttlMinutes: 5 });
      const expiry = Date.parse(created.expiresAt);
      const lookup = { host: 'localhost', token: created.token };
      expect(message(await siteAt(expiry - 1000).resolvePreview(lookup))).toBe('PAGE_FOUNDED');
      expect(message(await siteAt(expiry + 1000).resolvePreview(lookup))).toBe('DONT_EXIST_TOKEN_OR_URL');
      expect(message(await resolvePreview('unknown-preview-token-aaaaaa'))).toBe('DONT_EXIST_TOKEN_OR_URL');
    });

    it('opens on the owner’s own domain but not on another account’s domain', async () => {
      const { owner, pages } = await funnelWithLead();
      const stranger = await newAccount(t.services);
      const ownHost = `own-${owner.slug}.example.com`;
      const strangerHost = `other-${stranger.slug}.example.com`;
      await addVerifiedDomain(t.services, t.db, owner, ownHost);
      await addVerifiedDomain(t.services, t.db, stranger, strangerHost);
      const { token } = await t.services.previews.create(owner, pages[0]?.id ?? '');
      expect(message(await resolvePreview(token, ownHost))).toBe('PAGE_FOUNDED');
      expect(message(await resolvePreview(token, strangerHost))).toBe('DONT_EXIST_TOKEN_OR_URL');
      expect(message(await resolvePreview(token, 'unknown.example.com'))).toBe('DONT_EXIST_TOKEN_OR_URL');
    });

    it('resolving a preview writes nothing', async () => {
      const { owner, pages } = await funnelWithLead();
      const { token } = await t.services.previews.create(owner, pages[0]?.id ?? '');
      const before = await rowCounts(t.db);
      let next: string | null = token;
      while (next !== null) {
        next = (await resolvePreview(next)).data?.action.nextPreviewPageToken ?? null;
      }
      expect(await rowCounts(t.db)).toEqual(before);
    });
  });
});
