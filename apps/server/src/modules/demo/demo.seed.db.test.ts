import { statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { PUBLIC_URL, rowCounts, useServices } from '../../../test/fixtures';
import { ASSETS_DIR } from '../../app';
import { seedDemo, type DemoAccount, type DemoSummary } from './demo.seed';

describe.each(TEST_DIALECTS)('demo seed on %s', (dialect) => {
  const t = useServices(dialect);
  const runs: { summary: DemoSummary; counts: Awaited<ReturnType<typeof rowCounts>> }[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const summary = await seedDemo(t.services, PUBLIC_URL);
      runs.push({ summary, counts: await rowCounts(t.db) });
    }
  });

  const first = () => {
    const run = runs[0];
    if (!run) throw new Error('the seed did not run');
    return run.summary;
  };
  const accounts = (): DemoAccount[] => [first(), ...first().otherAccounts];
  const funnelNamed = (account: DemoAccount, name: string) => {
    const funnel = account.funnels.find((f) => f.name === name);
    if (!funnel) throw new Error(`no funnel ${name}`);
    return funnel;
  };
  const resolve = (slug: string, token: string) =>
    t.services.visitorPages.resolve({ host: 'localhost', type: 'BASE', slug, token });

  it('a second run prints the same links and adds no rows', () => {
    const [once, twice] = runs;
    expect(twice?.summary).toEqual(once?.summary);
    expect(twice?.counts).toEqual(once?.counts);
    expect(once?.counts).toMatchObject({
      accounts: 2,
      apiKeys: 2,
      funnels: 3,
      pages: 5,
      leads: 6,
      previewTokens: 5,
    });
  });

  it('the demo account has a 3-page self-hosted VSL funnel and a WhatsApp funnel', async () => {
    const demo = first();
    expect(demo.accountSlug).toBe('demo');
    const vsl = funnelNamed(demo, 'Lanzamiento VSL');
    expect(vsl.pages.map((p) => p.buttonAction)).toEqual(['NEXT-PAGE', 'NEXT-PAGE', 'OFFERT']);
    const owner = await t.services.accounts.authenticate(demo.apiKey);
    if (!owner) throw new Error('the demo key opens nothing');
    for (const page of await t.services.pages.list(owner, vsl.id)) {
      expect(page.hostingVideo).toBe('SELF_HOSTED');
      const file = join(ASSETS_DIR, (page.videoUrl ?? '').replace(/^\/assets\//, ''));
      expect(page.videoUrl).toMatch(/^\/assets\//);
      expect(statSync(file).size).toBeGreaterThan(0);
    }
    const whatsapp = funnelNamed(demo, 'WhatsApp landing');
    expect(whatsapp.pages.map((p) => p.buttonAction)).toEqual(['LPI-REDIRECT-WPP']);
  });

  it('every printed lead link resolves to that lead’s page', async () => {
    for (const account of accounts()) {
      for (const funnel of account.funnels) {
        expect(funnel.leads.length).toBeGreaterThan(0);
        for (const lead of funnel.leads) {
          expect(lead.url).toBe(`${PUBLIC_URL}/${account.accountSlug}/${lead.token}`);
          const response = await resolve(account.accountSlug, lead.token);
          expect(response.message, lead.name).toBe('PAGE_FOUNDED');
          expect(response.data).toMatchObject({ idFunnel: funnel.id, lead: { name: lead.name } });
        }
      }
    }
  });

  it('every printed preview link opens the funnel’s first page', async () => {
    for (const funnel of accounts().flatMap((a) => a.funnels)) {
      const token = new URL(funnel.previewUrl).searchParams.get('previewToken') ?? '';
      const response = await t.services.visitorPages.resolvePreview({ host: 'localhost', token });
      expect(response.data?.idPage, funnel.name).toBe(funnel.pages[0]?.id);
    }
  });

  it('every printed API key opens its account', async () => {
    for (const account of accounts()) {
      expect((await t.services.accounts.authenticate(account.apiKey))?.slug).toBe(account.accountSlug);
    }
  });

  it('the enigma WhatsApp page shows the account’s green button', async () => {
    const enigma = first().otherAccounts.find((a) => a.accountSlug === 'enigma');
    if (!enigma) throw new Error('no enigma account');
    const lead = funnelNamed(enigma, 'Enigma WhatsApp').leads[0];
    const { data } = await resolve('enigma', lead?.token ?? '');
    expect(data).toMatchObject({ buttonAction: 'LPI-REDIRECT-WPP', buttonBgColor: '#25d366' });
    const demoLead = funnelNamed(first(), 'WhatsApp landing').leads[0];
    const demoPage = await resolve('demo', demoLead?.token ?? '');
    expect(demoPage.data?.buttonBgColor).not.toBe('#25d366');
  });
});
