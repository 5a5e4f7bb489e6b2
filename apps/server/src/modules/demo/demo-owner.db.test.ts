import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { PUBLIC_URL, rowCounts, useServices } from '../../../test/fixtures';
import { seedDemo } from './demo.seed';
import { DEMO_OWNER_EMAIL, formatDemoStudio, seedDemoOwner } from './demo-owner';

describe.each(TEST_DIALECTS)('the demo owner on %s', (dialect) => {
  const t = useServices(dialect);

  it('is the demo account’s owner, with the same derived password every run, and adds nothing the second time', async () => {
    await seedDemo(t.services, PUBLIC_URL);
    const first = await seedDemoOwner(t.services, 'demo');
    const counts = await rowCounts(t.db);
    const second = await seedDemoOwner(t.services, 'demo');
    expect(second).toEqual(first);
    expect(await rowCounts(t.db)).toEqual(counts);
    expect(first).toMatchObject({ url: `${PUBLIC_URL}/studio`, email: DEMO_OWNER_EMAIL });
    const user = await t.services.users.checkPassword(DEMO_OWNER_EMAIL, first.password ?? '');
    expect(user).toBeDefined();
    const demo = await t.services.accounts.findBySlug('demo');
    expect((await t.services.members.membership(user?.id ?? '', demo?.id ?? ''))?.role).toBe('owner');
    expect(formatDemoStudio(first)).toEqual([
      '',
      `Studio: ${PUBLIC_URL}/studio`,
      `  e-mail:   ${DEMO_OWNER_EMAIL}`,
      `  password: ${first.password ?? ''}`,
    ]);
  });

  it('keeps a password the owner changed, and no longer prints one', async () => {
    const seeded = await seedDemoOwner(t.services, 'demo');
    const user = await t.services.users.findByEmail(DEMO_OWNER_EMAIL);
    await t.services.users.changePassword(user?.id ?? '', seeded.password ?? '', 'my own new passphrase');
    const after = await seedDemoOwner(t.services, 'demo');
    expect(after.password).toBeNull();
    expect(await t.services.users.checkPassword(DEMO_OWNER_EMAIL, 'my own new passphrase')).toBeDefined();
    expect(formatDemoStudio(after).at(-1)).toContain('user reset-password --email owner@demo.example.com');
  });
});
