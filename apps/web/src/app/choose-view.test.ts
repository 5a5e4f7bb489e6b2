import type { FunnelPageData, SiteContext, SiteResponse } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { chooseView, type View, type ViewInput } from './choose-view';

/**
 * chooseView decides the entry view in the order of visitor-behaviour §2.2: loading, legal, not found by the
 * address, not found by a load error, expired, invalid link (and a WhatsApp landing page switched
 * off), the page, and not found for anything else. Each step has a case, and where two steps hold at
 * once the earlier one wins.
 */

/** Only the fields chooseView reads; the rest of a page does not decide the view. */
type DecidingFields = Pick<
  FunnelPageData,
  'isExpired' | 'isDeadlineExceptionOn' | 'buttonAction' | 'isLpiOn'
>;

function pageData(overrides: Partial<DecidingFields> = {}): FunnelPageData {
  const fields: DecidingFields = {
    isExpired: false,
    isDeadlineExceptionOn: false,
    buttonAction: 'OFFERT',
    isLpiOn: true,
    ...overrides,
  };
  return fields as FunnelPageData;
}

function found(overrides: Partial<DecidingFields> = {}): SiteResponse {
  return { codeResponse: 200, result: true, message: 'PAGE_FOUNDED', data: pageData(overrides) };
}

const UNKNOWN_TOKEN: SiteResponse = {
  codeResponse: 404,
  result: false,
  message: 'DONT_EXIST_TOKEN_OR_URL',
  data: null,
};

const LEAD_LINK: SiteContext = {
  userDomain: 'https://go.embudo.test',
  userSlug: 'acme',
  userToken: 'lead-token',
  type: 'BASE',
};

function input(overrides: Partial<ViewInput> = {}): ViewInput {
  return {
    context: LEAD_LINK,
    site: found(),
    loading: false,
    error: false,
    redirecting: false,
    ...overrides,
  };
}

const view = (overrides: Partial<ViewInput> = {}): View => chooseView(input(overrides));
const withQuery = (page: string): SiteContext => ({ ...LEAD_LINK, queryParams: { page } });

describe('chooseView, step by step (visitor-behaviour §2.2)', () => {
  it('0. a lead link whose page was found shows the page (the baseline every case changes one thing of)', () => {
    expect(view()).toEqual({ kind: 'page' });
  });

  it('1. loading while redirecting to the chat application', () => {
    expect(view({ redirecting: true })).toEqual({ kind: 'loading' });
  });

  it('1. loading while the page configuration loads', () => {
    expect(view({ loading: true, site: undefined })).toEqual({ kind: 'loading' });
  });

  it('2. a legal page by ?page=terms or ?page=privacy', () => {
    expect(view({ context: withQuery('terms') })).toEqual({ kind: 'legal', page: 'terms' });
    expect(view({ context: withQuery('privacy') })).toEqual({ kind: 'legal', page: 'privacy' });
  });

  it('2. any other ?page value is not a legal page', () => {
    expect(view({ context: withQuery('cookies') })).toEqual({ kind: 'page' });
    expect(view({ context: withQuery('TERMS') })).toEqual({ kind: 'page' });
  });

  it('3. not found for an empty or unparseable domain', () => {
    expect(view({ context: { ...LEAD_LINK, userDomain: '' } })).toEqual({ kind: 'notFound' });
    expect(view({ context: { ...LEAD_LINK, userDomain: 'not a url' } })).toEqual({ kind: 'notFound' });
  });

  it('3. not found for a base domain without a slug, but a custom domain needs none', () => {
    expect(view({ context: { ...LEAD_LINK, userSlug: undefined } })).toEqual({ kind: 'notFound' });
    expect(view({ context: { ...LEAD_LINK, userSlug: '' } })).toEqual({ kind: 'notFound' });
    expect(
      view({
        context: { userDomain: 'https://promo.example.store', userToken: 'lead-token', type: 'CUSTOM' },
      }),
    ).toEqual({ kind: 'page' });
  });

  it('3. not found for a test or invalid domain, whatever its case', () => {
    for (const domain of ['https://example.com', 'https://EXAMPLE.net', 'http://example.org:8080']) {
      expect(view({ context: { ...LEAD_LINK, userDomain: domain } }), domain).toEqual({ kind: 'notFound' });
    }
    expect(view({ context: { ...LEAD_LINK, userDomain: 'https://shop.example.com' } })).toEqual({
      kind: 'page',
    });
  });

  it('4. not found after a load error, or without an answer', () => {
    expect(view({ error: true })).toEqual({ kind: 'notFound' });
    expect(view({ site: null })).toEqual({ kind: 'notFound' });
    expect(view({ site: undefined })).toEqual({ kind: 'notFound' });
  });

  it('5. expired, unless the deadline exception is on', () => {
    expect(view({ site: found({ isExpired: true }) })).toEqual({ kind: 'expired' });
    expect(view({ site: found({ isExpired: true, isDeadlineExceptionOn: true }) })).toEqual({ kind: 'page' });
    expect(view({ site: found({ isExpired: false, isDeadlineExceptionOn: true }) })).toEqual({
      kind: 'page',
    });
  });

  it('6. an invalid link for an unknown token or address', () => {
    expect(view({ site: UNKNOWN_TOKEN })).toEqual({ kind: 'invalidLink' });
  });

  it('6. not found, never "invalid link", for a WhatsApp landing page the owner switched off', () => {
    expect(view({ site: found({ buttonAction: 'LPI-REDIRECT-WPP', isLpiOn: false }) })).toEqual({
      kind: 'notFound',
    });
    expect(view({ site: found({ buttonAction: 'LPI-REDIRECT-WPP', isLpiOn: true }) })).toEqual({
      kind: 'page',
    });
    // Only a WhatsApp landing page is switched off by isLpiOn.
    expect(view({ site: found({ buttonAction: 'NEXT-PAGE', isLpiOn: false }) })).toEqual({ kind: 'page' });
  });

  it('7. the page when it was found with its data', () => {
    for (const buttonAction of ['OFFERT', 'NEXT-PAGE', 'NEXT-PREVIEW-PAGE'] as const) {
      expect(view({ site: found({ buttonAction }) }), buttonAction).toEqual({ kind: 'page' });
    }
  });

  it('8. not found for any other answer', () => {
    for (const message of ['INACTIVE_SUBSCRIPTION', 'CANT_GET_USER'] as const) {
      expect(view({ site: { codeResponse: 403, result: false, message, data: null } }), message).toEqual({
        kind: 'notFound',
      });
    }
    // PAGE_FOUNDED without data is not a page.
    expect(view({ site: { ...found(), data: null } })).toEqual({ kind: 'notFound' });
  });
});

describe('chooseView, when two steps hold the earlier one wins (visitor-behaviour §2.2)', () => {
  it('1 before 2: loading before a legal page', () => {
    expect(view({ loading: true, context: withQuery('terms') })).toEqual({ kind: 'loading' });
    expect(view({ redirecting: true, context: withQuery('privacy') })).toEqual({ kind: 'loading' });
  });

  it('1 before 3 and 4: loading before a bad domain or a load error', () => {
    expect(view({ loading: true, context: { ...LEAD_LINK, userDomain: '' } })).toEqual({ kind: 'loading' });
    expect(view({ redirecting: true, error: true })).toEqual({ kind: 'loading' });
  });

  it('2 before 3: a legal page on an invalid domain or a base domain without a slug', () => {
    expect(view({ context: { ...withQuery('terms'), userDomain: 'https://example.com' } })).toEqual({
      kind: 'legal',
      page: 'terms',
    });
    expect(view({ context: { ...withQuery('privacy'), userSlug: undefined } })).toEqual({
      kind: 'legal',
      page: 'privacy',
    });
  });

  it('2 before 4 and 6: a legal page after a load error or for an unknown token', () => {
    expect(view({ context: withQuery('terms'), error: true, site: null })).toEqual({
      kind: 'legal',
      page: 'terms',
    });
    expect(view({ context: withQuery('privacy'), site: UNKNOWN_TOKEN })).toEqual({
      kind: 'legal',
      page: 'privacy',
    });
  });

  it('3 before 5 and 6: not found on an invalid domain, even for an expired page or an unknown token', () => {
    const invalid = { ...LEAD_LINK, userDomain: 'https://example.org' };
    expect(view({ context: invalid, site: found({ isExpired: true }) })).toEqual({ kind: 'notFound' });
    expect(view({ context: invalid, site: UNKNOWN_TOKEN })).toEqual({ kind: 'notFound' });
  });

  it('4 before 5: a load error is not found, even with an expired page in hand', () => {
    expect(view({ error: true, site: found({ isExpired: true }) })).toEqual({ kind: 'notFound' });
  });

  it('5 before 6: an expired WhatsApp landing page switched off is expired', () => {
    expect(
      view({ site: found({ isExpired: true, buttonAction: 'LPI-REDIRECT-WPP', isLpiOn: false }) }),
    ).toEqual({
      kind: 'expired',
    });
  });

  it('5 before 6: an expired answer for an unknown token is expired', () => {
    expect(view({ site: { ...UNKNOWN_TOKEN, data: pageData({ isExpired: true }) } })).toEqual({
      kind: 'expired',
    });
  });

  it('6 before 7: an unknown token is an invalid link, even with page data', () => {
    expect(view({ site: { ...UNKNOWN_TOKEN, data: pageData() } })).toEqual({ kind: 'invalidLink' });
  });

  it('6 before 7: a WhatsApp landing page switched off is not found, even though it was found', () => {
    expect(view({ site: found({ buttonAction: 'LPI-REDIRECT-WPP', isLpiOn: false }) }).kind).toBe('notFound');
  });
});
