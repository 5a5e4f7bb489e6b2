import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, rejectUnstorableInput } from './input-guard';

/** The message of the 400 the guard refuses a request with (it starts with the field path), or nothing. */
async function refusalOf(body: unknown, query: unknown = {}): Promise<string | undefined> {
  const request = { body, query, params: {} } as unknown as FastifyRequest;
  try {
    await rejectUnstorableInput(request);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function nested(levels: number): unknown {
  let value: unknown = 'deepest';
  for (let i = 0; i < levels; i++) value = { inner: value };
  return value;
}

describe('the input guard', () => {
  it('lets ordinary bodies through, arrays and nulls included', async () => {
    expect(
      await refusalOf({ token: 'abc', details: { list: [1, 'two', null, { x: true }] } }),
    ).toBeUndefined();
    expect(await refusalOf(undefined)).toBeUndefined();
    expect(await refusalOf('plain text')).toBeUndefined();
    expect(await refusalOf(nested(MAX_DEPTH))).toBeUndefined();
  });

  it('names the field that holds U+0000, however deep, in arrays too', async () => {
    expect(await refusalOf({ details: { browser: { name: 'Chr\u0000ome' } } })).toBe(
      'body.details.browser.name contains a NUL character (U+0000), which cannot be stored',
    );
    expect(await refusalOf({ languages: ['es', 'e\u0000n'] })).toMatch(/^body\.languages\.1 contains/);
    expect(await refusalOf('\u0000')).toMatch(/^body contains/);
    expect(await refusalOf({}, { q: 'a\u0000' })).toMatch(/^querystring\.q contains/);
  });

  it('names the object whose key holds U+0000', async () => {
    expect(await refusalOf({ details: { ['k\u0000']: 1 } })).toMatch(/^body\.details contains/);
  });

  it('refuses nesting deeper than the limit, at the first level too deep', async () => {
    const message = await refusalOf(nested(MAX_DEPTH + 1));
    expect(message).toBe(`body${'.inner'.repeat(MAX_DEPTH)} is nested more than ${MAX_DEPTH} levels deep`);
  });
});
