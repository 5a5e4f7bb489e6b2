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
  ])('refuses %s=%s with a sentence naming it', (name, value, expected) => {
    const attempt = () => loadConfig({ [name]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(expected);
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
