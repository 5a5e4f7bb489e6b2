import { describe, expect, it } from 'vitest';
import { newAccount, useServices } from '../../test/fixtures';
import { TEST_DIALECTS } from '../../test/databases';
import { batchedRead, inJsonList } from './batched-read';

describe.each(TEST_DIALECTS)('reads by key gathered into one statement, on %s', (dialect) => {
  const h = useServices(dialect);
  const accountBySlug = () =>
    batchedRead(
      h.db,
      (slugs) =>
        h.db
          .selectFrom('accounts')
          .select(['slug', 'name'])
          .where(inJsonList(dialect, 'slug', slugs)),
      (row) => row.slug,
    );

  it('answers each lookup asked at once with its own row, and a key with none with undefined', async () => {
    const accounts = await Promise.all(Array.from({ length: 30 }, () => newAccount(h.services)));
    const find = accountBySlug();
    const asked = [...accounts.map((a) => a.slug), 'nobody', accounts[3]?.slug ?? ''];
    const found = await Promise.all(asked.map((slug) => find(slug)));
    expect(found.map((row) => row?.name)).toEqual([
      ...accounts.map((a) => a.name),
      undefined,
      accounts[3]?.name,
    ]);
  });

  it('answers more lookups than one statement takes', async () => {
    const account = await newAccount(h.services);
    const find = accountBySlug();
    const asked = Array.from({ length: 1200 }, (_, i) => (i % 7 === 0 ? account.slug : `missing-${i}`));
    const found = await Promise.all(asked.map((slug) => find(slug)));
    expect(found.filter((row) => row?.name === account.name)).toHaveLength(172);
    expect(found.filter((row) => row === undefined)).toHaveLength(1200 - 172);
  });

  it('reads what was committed before the lookup, never a copy of an earlier answer', async () => {
    const account = await newAccount(h.services);
    const find = accountBySlug();
    expect((await find(account.slug))?.name).toBe(account.name);
    await h.db.updateTable('accounts').set({ name: 'Renamed' }).where('id', '=', account.id).execute();
    expect((await find(account.slug))?.name).toBe('Renamed');
  });

  it('fails only the lookup whose key the database refuses, and finds nothing for text that is not well formed', async () => {
    const account = await newAccount(h.services);
    const find = accountBySlug();
    const [good, nul, lone] = await Promise.allSettled([
      find(account.slug),
      find('a\u0000b'),
      find('x\ud800y'),
    ]);
    expect(good).toEqual({ status: 'fulfilled', value: { slug: account.slug, name: account.name } });
    // PostgreSQL's JSON cannot hold a NUL: that lookup alone fails. SQLite's finds no such account.
    if (dialect === 'postgres') expect(nul.status).toBe('rejected');
    else expect(nul).toEqual({ status: 'fulfilled', value: undefined });
    expect(lone).toEqual({ status: 'fulfilled', value: undefined });
  });
});
