import {
  FUNNEL_DEFAULTS,
  FunnelFields,
  type Funnel,
  type FunnelSettings,
  type PixelSettingsInput,
} from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, useServices } from '../../../test/fixtures';
import { HttpError } from '../../lib/http-errors';

/** Every setting with a value other than its default. */
const FULL: FunnelSettings = {
  name: 'Full funnel',
  typeFunnel: 'LPI',
  language: 'pt',
  deadline: { mode: 'afterLeadCreated', hours: 72 },
  isDeadlineExceptionOn: false,
  isPreLaunch: true,
  isFakeUserOnlineOn: true,
  fakeUserRange: [5, 50],
  isFomoOn: true,
  fomo: {
    lpi: { fomoApplied: true },
    video: { fomoApplied: true },
    offert: { fomoApplied: true },
    intervalSeconds: 45,
    position: 'right',
    source: 'messages',
    messages: [{ name: 'Ana', location: 'Ciudad de México', countryCode: 'MX' }],
  },
  expiredPage: {
    title: 'Se acabó',
    subtitle: 'La oferta terminó',
    description: 'Vuelve pronto',
    highlight: 'Gracias',
    bgImageUrl: 'https://cdn.example.com/expired.jpg',
  },
};
const PIXEL: PixelSettingsInput = {
  pixelId: '1234567890',
  accessToken: 'EAAB-secret-access-token',
  testEventCode: 'TEST123',
};
const SETTINGS = Object.keys(FunnelFields) as (keyof FunnelSettings)[];

const settingsOf = (funnel: Funnel): FunnelSettings =>
  Object.fromEntries(SETTINGS.map((key) => [key, funnel[key]])) as FunnelSettings;

describe.each(TEST_DIALECTS)('funnels on %s', (dialect) => {
  const t = useServices(dialect);

  it('every setting of the test funnel differs from its default', () => {
    for (const key of SETTINGS) expect(FULL[key], key).not.toEqual({ name: '', ...FUNNEL_DEFAULTS }[key]);
  });

  it('creates a funnel with the defaults', async () => {
    const owner = await newAccount(t.services);
    const { funnel } = await newFunnel(t.services, owner, { funnel: { name: 'Plain' } });
    expect(settingsOf(funnel)).toEqual({ ...FUNNEL_DEFAULTS, name: 'Plain' });
    expect(funnel.pixel).toEqual({ pixelId: null, hasAccessToken: false, testEventCode: null });
    expect(funnel.pageCount).toBe(0);
    expect(await t.services.funnels.get(owner, funnel.id)).toEqual(funnel);
  });

  it('creates a funnel with every setting', async () => {
    const owner = await newAccount(t.services);
    const { funnel } = await newFunnel(t.services, owner, { funnel: { ...FULL, pixel: PIXEL } });
    expect(settingsOf(funnel)).toEqual(FULL);
    expect(funnel.pixel).toEqual({ pixelId: PIXEL.pixelId, hasAccessToken: true, testEventCode: 'TEST123' });
    expect(await t.services.funnels.get(owner, funnel.id)).toEqual(funnel);
  });

  it('merges nested settings one level deep on update', async () => {
    const owner = await newAccount(t.services);
    const { funnel } = await newFunnel(t.services, owner, { funnel: FULL });
    const updated = await t.services.funnels.update(owner, funnel.id, {
      fomo: { position: 'left' },
      expiredPage: { title: 'Nuevo título' },
    });
    const expected = {
      ...FULL,
      fomo: { ...FULL.fomo, position: 'left' },
      expiredPage: { ...FULL.expiredPage, title: 'Nuevo título' },
    };
    expect(settingsOf(updated)).toEqual(expected);
    expect(settingsOf(await t.services.funnels.get(owner, funnel.id))).toEqual(expected);
  });

  it('an update of one top-level setting leaves the others unchanged', async () => {
    const owner = await newAccount(t.services);
    const { funnel } = await newFunnel(t.services, owner, { funnel: { ...FULL, pixel: PIXEL } });
    const updated = await t.services.funnels.update(owner, funnel.id, { language: 'en' });
    expect(settingsOf(updated)).toEqual({ ...FULL, language: 'en' });
    expect(updated.pixel).toEqual(funnel.pixel);
    expect(updated.createdAt).toBe(funnel.createdAt);
  });

  it('never returns the pixel access token, and keeps it when other pixel fields change', async () => {
    const owner = await newAccount(t.services);
    const { funnel } = await newFunnel(t.services, owner, { funnel: { name: 'Pixel', pixel: PIXEL } });
    const token = PIXEL.accessToken ?? '';
    const storedToken = async () => (await t.services.funnels.load(owner, funnel.id)).pixel.accessToken;

    const changed = await t.services.funnels.update(owner, funnel.id, {
      pixel: { pixelId: '99999', testEventCode: null },
    });
    expect(changed.pixel).toEqual({ pixelId: '99999', hasAccessToken: true, testEventCode: null });
    expect(await storedToken()).toBe(token);
    const answers = [funnel, changed, await t.services.funnels.get(owner, funnel.id)];
    answers.push(...(await t.services.funnels.list(owner)));
    expect(JSON.stringify(answers)).not.toContain(token);

    const cleared = await t.services.funnels.update(owner, funnel.id, { pixel: { accessToken: null } });
    expect(cleared.pixel).toEqual({ pixelId: '99999', hasAccessToken: false, testEventCode: null });
    expect(await storedToken()).toBeNull();
  });

  it('counts its pages', async () => {
    const owner = await newAccount(t.services);
    const { funnel, pages } = await newFunnel(t.services, owner, { pages: [{}, {}, {}] });
    await newFunnel(t.services, owner, { funnel: { name: 'Empty' } });
    expect((await t.services.funnels.get(owner, funnel.id)).pageCount).toBe(3);
    await t.services.pages.remove(owner, pages[1]?.id ?? '');
    expect((await t.services.funnels.get(owner, funnel.id)).pageCount).toBe(2);
    const listed = await t.services.funnels.list(owner);
    expect(listed.map((f) => [f.name, f.pageCount])).toEqual([
      ['Test funnel', 2],
      ['Empty', 0],
    ]);
  });

  it('deleting a funnel deletes its pages, leads and preview links, and nothing else', async () => {
    const owner = await newAccount(t.services);
    const doomed = await newFunnel(t.services, owner, { pages: [{}, {}] });
    const kept = await newFunnel(t.services, owner, { funnel: { name: 'Kept' }, pages: [{}] });
    for (const { funnel, pages } of [doomed, kept]) {
      await t.services.leads.import(owner, funnel.id, [{ name: 'Ana' }, { name: 'Bruno' }]);
      await t.services.previews.create(owner, pages[0]?.id ?? '');
    }
    const counts = async (funnelId: string) =>
      Promise.all(
        (['pages', 'leads', 'previewTokens'] as const).map(async (table) => {
          const rows = await t.db.selectFrom(table).select('id').where('funnelId', '=', funnelId).execute();
          return rows.length;
        }),
      );
    expect(await counts(doomed.funnel.id)).toEqual([2, 2, 2]);

    await t.services.funnels.remove(owner, doomed.funnel.id);
    expect(await counts(doomed.funnel.id)).toEqual([0, 0, 0]);
    expect(await counts(kept.funnel.id)).toEqual([1, 2, 1]);
    await expect(t.services.funnels.get(owner, doomed.funnel.id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('lists and opens only the account’s own funnels', async () => {
    const [ana, bruno] = [await newAccount(t.services), await newAccount(t.services)];
    const first = (await newFunnel(t.services, ana, { funnel: { name: 'A1' } })).funnel;
    await newFunnel(t.services, ana, { funnel: { name: 'A2' } });
    const theirs = (await newFunnel(t.services, bruno, { funnel: { name: 'B1' } })).funnel;

    expect((await t.services.funnels.list(ana)).map((f) => f.name)).toEqual(['A1', 'A2']);
    expect((await t.services.funnels.list(bruno)).map((f) => f.name)).toEqual(['B1']);
    await expect(t.services.funnels.get(ana, theirs.id)).rejects.toBeInstanceOf(HttpError);
    await expect(t.services.funnels.update(ana, theirs.id, { name: 'X' })).rejects.toBeInstanceOf(HttpError);
    await expect(t.services.funnels.remove(ana, theirs.id)).rejects.toBeInstanceOf(HttpError);
    expect(await t.services.funnels.get(bruno, theirs.id)).toEqual(theirs);
    expect((await t.services.funnels.get(ana, first.id)).name).toBe('A1');
  });
});
