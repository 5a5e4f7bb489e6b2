import { Funnel, FomoResponse, Page, type FomoSite } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { api } from '../../../test/server';
import {
  PREFIXES,
  completePage,
  expectVisitorError,
  newLead,
  read,
  useVisitorServer,
  type Prefix,
} from '../../../test/visitor';

/**
 * Social-proof popups (visitor-behaviour §4.8, §7; architecture §5.13) against a real server: off by default, fed from
 * the funnel's real conversions or the owner's list as the owner chose, with the funnel's interval
 * and position.
 */

const VIDEO_ES = '{name} está viendo esta clase';

describe.each(TEST_DIALECTS)('visitor FOMO API on %s', (dialect) => {
  const h = useVisitorServer(dialect);

  const owner = (method: string, path: string, body?: unknown) =>
    api(h.server, method, `/api/owner${path}`, {
      key: h.demo.apiKey,
      ...(body === undefined ? {} : { body }),
    });

  /** The page of an offer: only there does the offer event count (issue 16, item 7). */
  const OFFER_PAGE = { buttonAction: 'OFFERT', buttonUrl: 'https://pay.example.com/checkout' } as const;

  /** A new funnel of the demo owner with one video page, so that leads can convert on it. */
  async function newFunnel(
    settings: Record<string, unknown> = {},
    pageFields: Record<string, unknown> = {},
  ): Promise<{ funnel: Funnel; page: Page }> {
    const created = await owner('POST', '/funnels', {
      name: `FOMO ${Math.random().toString(36).slice(2)}`,
      ...settings,
    });
    expect(created.status, created.text).toBe(201);
    const funnel = read(Funnel, created);
    const page = await owner('POST', `/funnels/${funnel.id}/pages`, { headline: 'Clase 1', ...pageFields });
    expect(page.status, page.text).toBe(201);
    return { funnel, page: read(Page, page) };
  }

  async function patchFunnel(id: string, patch: Record<string, unknown>): Promise<Funnel> {
    const answer = await owner('PATCH', `/funnels/${id}`, patch);
    expect(answer.status, answer.text).toBe(200);
    return read(Funnel, answer);
  }

  /** Leads of the funnel who watched the video: each one a real VIDEO_VIEWED conversion. */
  /** Each lead watches the page's video, or, with `offer`, uses the offer button. */
  async function convert(
    funnel: { id: string },
    page: { id: string },
    names: string[],
    offer = false,
  ): Promise<void> {
    for (const name of names) {
      const lead = await newLead(h, funnel.id, name);
      const answer = offer
        ? await api(h.server, 'POST', '/api/funnel/track/event/offert', { body: { token: lead.token } })
        : await completePage(h, lead.token, page.id);
      expect(answer.status, answer.text).toBe(200);
    }
  }

  async function fomo(idFunnel: string, site: FomoSite, prefix: Prefix = '/api'): Promise<FomoResponse> {
    const answer = await api(h.server, 'POST', `${prefix}/funnel/fomo`, {
      body: { idFunnel, site, location: {} },
    });
    expect(answer.status, answer.text).toBe(200);
    return read(FomoResponse, answer);
  }

  const ON_FOR_VIDEO = {
    isFomoOn: true,
    fomo: { video: { fomoApplied: true }, source: 'conversions', intervalSeconds: 30, position: 'right' },
  };

  it.each(PREFIXES)(
    '%s/funnel/fomo is off by default, with the funnel’s interval and position',
    async (prefix) => {
      const { funnel, page } = await newFunnel();
      await convert(funnel, page, ['Ana']);
      for (const site of ['LPI', 'VIDEO', 'OFFERT'] as const) {
        expect(await fomo(funnel.id, site, prefix)).toEqual({ messages: [], interval: 20, position: 'left' });
      }
      await patchFunnel(funnel.id, { fomo: { intervalSeconds: 45, position: 'right' } });
      expect(await fomo(funnel.id, 'VIDEO', prefix)).toEqual({
        messages: [],
        interval: 45,
        position: 'right',
      });
    },
  );

  it.each(PREFIXES)(
    '%s/funnel/fomo answers the first names of real converters with the VIDEO template',
    async (prefix) => {
      const { funnel, page } = await newFunnel({ language: 'es' });
      await patchFunnel(funnel.id, ON_FOR_VIDEO);
      await convert(funnel, page, ['maría lópez', 'Pedro Páramo', 'Lucas']);
      const answer = await fomo(funnel.id, 'VIDEO', prefix);
      expect(answer.interval).toBe(30);
      expect(answer.position).toBe('right');
      expect(answer.messages.map((m) => m.name).sort()).toEqual(['Lucas', 'María', 'Pedro']);
      for (const message of answer.messages) {
        // The converters came from loopback: no place is known, and no flag is shown.
        expect(message).toMatchObject({ messageTemplate: VIDEO_ES, location: '', countryCode: null });
      }
    },
  );

  it('answers nothing for a page type the owner did not apply it to', async () => {
    const { funnel, page } = await newFunnel();
    await patchFunnel(funnel.id, ON_FOR_VIDEO);
    await convert(funnel, page, ['Ana']);
    expect((await fomo(funnel.id, 'VIDEO')).messages).toHaveLength(1);
    for (const site of ['LPI', 'OFFERT'] as const) {
      for (const prefix of PREFIXES) {
        expect(await fomo(funnel.id, site, prefix)).toEqual({
          messages: [],
          interval: 30,
          position: 'right',
        });
      }
    }
  });

  it('answers nothing while isFomoOn is off, even with the page type applied', async () => {
    const { funnel, page } = await newFunnel();
    await patchFunnel(funnel.id, { ...ON_FOR_VIDEO, isFomoOn: false });
    await convert(funnel, page, ['Ana']);
    expect((await fomo(funnel.id, 'VIDEO')).messages).toEqual([]);
  });

  it('source messages answers only the owner’s list', async () => {
    const { funnel, page } = await newFunnel();
    const list = [
      { name: 'Lucía', location: 'Bogotá', countryCode: 'CO' },
      { name: 'Tomás', location: 'Lima', countryCode: null },
    ];
    await patchFunnel(funnel.id, {
      ...ON_FOR_VIDEO,
      fomo: { ...ON_FOR_VIDEO.fomo, source: 'messages', messages: list },
    });
    await convert(funnel, page, ['Ana', 'Bruno']);
    for (const prefix of PREFIXES) {
      expect((await fomo(funnel.id, 'VIDEO', prefix)).messages).toEqual(
        list.map((m) => ({ ...m, messageTemplate: VIDEO_ES })),
      );
    }
  });

  it('source both answers the converters and then the owner’s list', async () => {
    const { funnel, page } = await newFunnel();
    const list = [{ name: 'Lucía', location: 'Bogotá', countryCode: 'CO' }];
    await patchFunnel(funnel.id, {
      ...ON_FOR_VIDEO,
      fomo: { ...ON_FOR_VIDEO.fomo, source: 'both', messages: list },
    });
    await convert(funnel, page, ['Ana']);
    const names = (await fomo(funnel.id, 'VIDEO')).messages.map((m) => m.name);
    expect(names).toEqual(['Ana', 'Lucía']);
  });

  it('source conversions ignores the owner’s list and other funnels’ converters', async () => {
    const { funnel, page } = await newFunnel();
    const other = await newFunnel();
    await patchFunnel(funnel.id, {
      ...ON_FOR_VIDEO,
      fomo: { ...ON_FOR_VIDEO.fomo, messages: [{ name: 'Lucía', location: 'Bogotá', countryCode: 'CO' }] },
    });
    await convert(other.funnel, other.page, ['Zoe']);
    expect((await fomo(funnel.id, 'VIDEO')).messages).toEqual([]);
    await convert(funnel, page, ['Ana']);
    expect((await fomo(funnel.id, 'VIDEO')).messages.map((m) => m.name)).toEqual(['Ana']);
  });

  it.each([
    { language: 'pt', site: 'VIDEO', template: '{name} está assistindo esta aula' },
    { language: 'en', site: 'OFFERT', template: '{name} just bought' },
    { language: 'es', site: 'LPI', template: '{name} se unió al grupo' },
  ] as const)('speaks the funnel’s language ($language, $site)', async ({ language, site, template }) => {
    const { funnel, page } = await newFunnel({ language }, site === 'OFFERT' ? OFFER_PAGE : {});
    const key = { LPI: 'lpi', VIDEO: 'video', OFFERT: 'offert' }[site];
    await patchFunnel(funnel.id, {
      isFomoOn: true,
      fomo: { [key]: { fomoApplied: true }, source: 'conversions' },
    });
    // "just bought" stands only on real offer clicks; the other sentences on any conversion.
    await convert(funnel, page, ['Ana'], site === 'OFFERT');
    expect((await fomo(funnel.id, site)).messages).toEqual([
      { name: 'Ana', messageTemplate: template, location: '', countryCode: null },
    ]);
  });

  it.each(PREFIXES)(
    '%s/funnel/fomo with an unknown idFunnel answers no messages, not an error',
    async (prefix) => {
      expect(await fomo('00000000-0000-7000-8000-000000000000', 'VIDEO', prefix)).toEqual({
        messages: [],
        interval: 20,
        position: 'left',
      });
      expect(await fomo('not-a-funnel-id', 'OFFERT', prefix)).toEqual({
        messages: [],
        interval: 20,
        position: 'left',
      });
    },
  );

  it('shows one popup per person, and "just bought" only for people who used the offer', async () => {
    const { funnel, page } = await newFunnel({ language: 'en' }, OFFER_PAGE);
    await patchFunnel(funnel.id, {
      isFomoOn: true,
      fomo: { offert: { fomoApplied: true }, video: { fomoApplied: true }, source: 'conversions' },
    });
    await convert(funnel, page, ['Watcher']);
    await convert(funnel, page, ['Buyer'], true);
    const buyer = (await fomo(funnel.id, 'OFFERT')).messages;
    expect(buyer.map((m) => m.name)).toEqual(['Buyer']);
    const video = (await fomo(funnel.id, 'VIDEO')).messages.map((m) => m.name).sort();
    expect(video).toEqual(['Buyer', 'Watcher']);
  });

  it('bad input → 400 with the envelope', async () => {
    const { funnel } = await newFunnel();
    for (const prefix of PREFIXES) {
      for (const [body, field] of [
        [{ idFunnel: funnel.id, location: {} }, 'body.site'],
        [{ idFunnel: funnel.id, site: 'HOME', location: {} }, 'body.site'],
        [{ site: 'VIDEO', location: {} }, 'body.idFunnel'],
      ] as const) {
        const answer = await api(h.server, 'POST', `${prefix}/funnel/fomo`, { body });
        expect(expectVisitorError(answer, 400).issues?.map((i) => i.path)).toContain(field);
      }
    }
  });

  it('serves country flags from our own assets, and nothing else from that folder', async () => {
    const flag = await fetch(`${h.server.url}/assets/flags/mx.svg`);
    expect(flag.status).toBe(200);
    expect(flag.headers.get('content-type')).toContain('image/svg+xml');
    expect(await flag.text()).toContain('<svg');
    for (const path of ['qq.svg', 'MX.svg', 'mex.svg', '../package.json', '', '%2e%2e/package.json']) {
      const answer = await fetch(`${h.server.url}/assets/flags/${path}`);
      expect(answer.status, path).toBe(404);
    }
  });
});
