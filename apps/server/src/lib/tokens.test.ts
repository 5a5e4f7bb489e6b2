import { Id } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { deriveToken, hashToken, newApiKey, newId, newToken } from './tokens';

describe('tokens', () => {
  it('are URL-safe and carry at least 128 random bits', () => {
    const tokens = Array.from({ length: 1000 }, newToken);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/); // 24 bytes = 192 bits
    expect(new Set(tokens).size).toBe(1000);
    expect(newApiKey()).toMatch(/^emb_[A-Za-z0-9_-]{43}$/);
  });

  it('are stored as a SHA-256 digest that does not contain the token', () => {
    const token = newToken();
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toContain(token);
  });

  it('derive the same token from the same secret and label, and another from another secret', () => {
    expect(deriveToken('s1', 'demo:lead:0')).toBe(deriveToken('s1', 'demo:lead:0'));
    expect(deriveToken('s1', 'demo:lead:0')).not.toBe(deriveToken('s2', 'demo:lead:0'));
    expect(deriveToken('s1', 'demo:lead:0')).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});

describe('newId', () => {
  it('makes valid UUIDv7 ids that sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, newId);
    for (const id of ids.slice(0, 50)) {
      expect(Id.safeParse(id).success).toBe(true);
      expect(id[14]).toBe('7');
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
