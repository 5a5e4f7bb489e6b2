import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('runs with no settings at all: embedded database, port 3000, local base domains', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: 'sqlite:./data/embudo.db',
      publicUrl: 'http://localhost:3000',
      trustProxy: false,
      logLevel: 'info',
      seedDemo: 'auto',
    });
    expect(config.baseDomains).toEqual(expect.arrayContaining(['localhost', '127.0.0.1']));
  });

  it('reads base domains, the public URL and the proxy setting', () => {
    const config = loadConfig({
      BASE_DOMAINS: ' Go.Example.com, embudo.app ,',
      PUBLIC_URL: 'https://go.example.com/',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      DATABASE_URL: 'postgres://u@db:5432/embudo',
    });
    expect(config.baseDomains).toEqual(['localhost', '127.0.0.1', 'go.example.com', 'embudo.app']);
    expect(config.publicUrl).toBe('https://go.example.com');
    expect(config.trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });

  it.each([
    ['PORT', 'abc', 'PORT="abc"'],
    ['PORT', '70000', 'PORT="70000"'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL="loud": one of fatal, error'],
    ['PUBLIC_URL', 'go.example.com', 'PUBLIC_URL="go.example.com": an origin such as'],
    ['BASE_DOMAINS', 'https://x.com', 'BASE_DOMAINS="https://x.com": a comma-separated list of host names'],
    ['TRUST_PROXY', 'sometimes', 'TRUST_PROXY="sometimes"'],
    ['SEED_DEMO', 'maybe', 'SEED_DEMO="maybe": auto, always or never'],
    [
      'LEGAL_CONTACT_EMAIL',
      'privacy at example',
      'LEGAL_CONTACT_EMAIL="privacy at example": an e-mail address',
    ],
    ['MAX_PAGES_PER_FUNNEL', '0', 'MAX_PAGES_PER_FUNNEL="0": a whole number from 1 to 10000'],
    ['MAX_RICH_TEXT_CHARS', '100001', 'MAX_RICH_TEXT_CHARS="100001": a whole number from 1 to 100000'],
    ['MAX_FUNNEL_CONTENT_CHARS', 'lots', 'MAX_FUNNEL_CONTENT_CHARS="lots": a whole number from 1 to'],
    ['MAX_FUNNELS_PER_ACCOUNT', '2.5', 'MAX_FUNNELS_PER_ACCOUNT="2.5": a whole number from 1 to'],
    ['OWNER_RATE_LIMIT_PER_MINUTE', '-1', 'OWNER_RATE_LIMIT_PER_MINUTE="-1": a whole number from 0 to'],
    ['CONTENT_CACHE_BYTES', '32MB', 'CONTENT_CACHE_BYTES="32MB": a whole number from 0 to'],
  ])('refuses %s=%s with a sentence naming it', (name, value, expected) => {
    const attempt = () => loadConfig({ [name]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(expected);
  });

  it("reads the provider's contact address for the legal texts; none by default", () => {
    expect(loadConfig({}).legalContactEmail).toBeNull();
    expect(loadConfig({ LEGAL_CONTACT_EMAIL: '' }).legalContactEmail).toBeNull();
    expect(loadConfig({ LEGAL_CONTACT_EMAIL: ' privacy@host.example ' }).legalContactEmail).toBe(
      'privacy@host.example',
    );
  });

  it('limits what one account may store and ask, and what page resolution keeps, with defaults for npm start', () => {
    expect(loadConfig({}).ownerLimits).toEqual({
      funnelsPerAccount: 100,
      pagesPerFunnel: 60,
      richTextChars: 20_000,
      funnelContentChars: 500_000,
      requestsPerMinute: 600,
    });
    expect(loadConfig({}).contentCacheBytes).toBe(32 * 1024 * 1024);
    const set = loadConfig({
      MAX_FUNNELS_PER_ACCOUNT: '5',
      MAX_PAGES_PER_FUNNEL: '10',
      MAX_RICH_TEXT_CHARS: '1000',
      MAX_FUNNEL_CONTENT_CHARS: '50000',
      OWNER_RATE_LIMIT_PER_MINUTE: '0',
      CONTENT_CACHE_BYTES: '0',
    });
    expect(set.ownerLimits).toEqual({
      funnelsPerAccount: 5,
      pagesPerFunnel: 10,
      richTextChars: 1000,
      funnelContentChars: 50_000,
      requestsPerMinute: 0,
    });
    expect(set.contentCacheBytes).toBe(0);
  });

  it('lists every bad value at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });
});
