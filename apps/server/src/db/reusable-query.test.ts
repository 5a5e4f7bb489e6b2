import { describe, expect, it } from 'vitest';
import { newAccount, useServices } from '../../test/fixtures';
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

  it('refuses at once a named value the query never uses', () => {
    expect(() =>
      reusableQuery(h.db, ['slug', 'unused'], ({ slug }) =>
        h.db.selectFrom('accounts').select('id').where('slug', '=', slug),
      ),
    ).toThrow(/unused is not used/);
  });
});
