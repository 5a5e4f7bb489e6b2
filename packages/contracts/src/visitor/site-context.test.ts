import { describe, expect, it } from 'vitest';
import { parseSiteContext } from './site-context-parse';

const BASE = ['localhost', '127.0.0.1', 'go.embudo.app'];

describe('parseSiteContext (visitor-behaviour §2.1)', () => {
  it('reads slug and token on a base domain', () => {
    expect(parseSiteContext('https://go.embudo.app/acme/TOKEN123?page=terms', BASE)).toEqual({
      userDomain: 'https://go.embudo.app',
      type: 'BASE',
      userSlug: 'acme',
      userToken: 'TOKEN123',
      queryParams: { page: 'terms' },
    });
  });

  it('reads only the token on a custom domain, with the port in userDomain', () => {
    expect(parseSiteContext('http://promo.example.com:8080/TOKEN123/extra', BASE)).toEqual({
      userDomain: 'http://promo.example.com:8080',
      type: 'CUSTOM',
      userToken: 'TOKEN123',
    });
  });

  it('keeps page, open, previewToken and mode, and nothing else', () => {
    const context = parseSiteContext(
      'http://localhost:3000/a/b?utm_source=x&open=wpp&mode=dark&previewToken=P&fbclid=1&page=privacy',
      BASE,
    );
    expect(context.queryParams).toEqual({ open: 'wpp', mode: 'dark', previewToken: 'P', page: 'privacy' });
  });

  it('matches the host case-insensitively and leaves missing segments out', () => {
    expect(parseSiteContext('http://LOCALHOST:3000/', BASE)).toEqual({
      userDomain: 'http://localhost:3000',
      type: 'BASE',
    });
    expect(parseSiteContext('http://localhost:3000/only-slug', BASE)).toEqual({
      userDomain: 'http://localhost:3000',
      type: 'BASE',
      userSlug: 'only-slug',
    });
  });

  it('decodes percent-encoded segments, and keeps a malformed one as it is', () => {
    expect(parseSiteContext('http://localhost/ac%20me/t%C3%B3ken', BASE)).toMatchObject({
      userSlug: 'ac me',
      userToken: 'tóken',
    });
    expect(parseSiteContext('http://localhost/acme/%E0%A4%A', BASE)).toMatchObject({ userToken: '%E0%A4%A' });
  });
});
