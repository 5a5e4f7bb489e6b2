import { describe, expect, it } from 'vitest';
import { newAccount, newFunnel, useServices } from '../../test/fixtures';
import { TEST_DIALECTS } from '../../test/databases';
import { reusableQuery } from './reusable-query';

describe.each(TEST_DIALECTS)('a query compiled once and run with new values, on %s', (dialect) => {
  const h = useServices(dialect);

  it('puts each value in its place, whatever order the SQL uses them in', async () => {
    const alpha = await newAccount(h.services);
    const beta = await newAccount(h.services);
    // The values appear in the SQL in the opposite order to the list of names.
    const find = reusableQuery(h.db, ['name', 'slug'], ({ name, slug }) =>
      h.db
        .selectFrom('accounts')
        .select(['slug'])
        .where((eb) => eb.or([eb('slug', '=', slug), eb('name', '=', name)]))
        .orderBy('slug'),
    );
    expect(await find({ slug: alpha.slug, name: 'nobody' })).toEqual([{ slug: alpha.slug }]);
    expect(await find({ slug: 'nobody', name: beta.name })).toEqual([{ slug: beta.slug }]);
    expect(await find({ slug: alpha.slug, name: beta.name })).toHaveLength(2);
    expect(await find({ slug: 'nobody', name: 'nobody' })).toEqual([]);
  });

  it('reads what Kysely reads, column names and computed columns alike', async () => {
    const owner = await newAccount(h.services);
    const { funnel } = await newFunnel(h.services, owner, {
      pages: [{ headline: 'One' }, { headline: 'Two' }],
    });
    // A computed column and an alias: their names come back as Kysely gives them.
    const withPageCount = (id: string) =>
      h.db
        .selectFrom('funnels')
        .selectAll('funnels')
        .select((eb) =>
          eb
            .selectFrom('pages')
            .select((p) => p.fn.countAll<number>().as('n'))
            .whereRef('pages.funnelId', '=', 'funnels.id')
            .as('pageCount'),
        )
        .select('funnels.accountId as ownerAccountId')
        .where('funnels.id', '=', id);
    const find = reusableQuery(h.db, ['id'], ({ id }) => withPageCount(id));
    const viaKysely = await withPageCount(funnel.id).execute();
    expect(await find({ id: funnel.id })).toEqual(viaKysely);
    expect(viaKysely[0]).toMatchObject({ pageCount: 2, ownerAccountId: owner.id });
  });

  it('never reads what a transaction has written but not committed', async () => {
    const find = reusableQuery(h.db, ['slug'], ({ slug }) =>
      h.db.selectFrom('accounts').select('slug').where('slug', '=', slug),
    );
    const slug = `tx-${Date.now().toString(36)}`;
    let before: unknown = 'not answered';
    let reading: Promise<void> | undefined;
    await h.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('accounts')
        .values({ id: slug, slug, name: slug, subscriptionStatus: 'active', settings: '{}', createdAt: 1 })
        .execute();
      reading = find({ slug }).then((rows) => {
        before = rows;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      // SQLite's one connection makes the read wait for the commit; PostgreSQL's reads another one.
      expect([before]).toContainEqual(dialect === 'sqlite' ? 'not answered' : []);
    });
    await reading;
    expect(await find({ slug })).toEqual([{ slug }]);
  });

  it('refuses at once a named value the query never uses', () => {
    expect(() =>
      reusableQuery(h.db, ['slug', 'unused'], ({ slug }) =>
        h.db.selectFrom('accounts').select('id').where('slug', '=', slug),
      ),
    ).toThrow(/unused is not used/);
  });
});
