import type { Account, PixelRequest } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, rowCounts, useServices } from '../../../test/fixtures';
import { ServerEvent } from './meta-capi';
import { createPixelRepo } from './pixel.repo';
import { createFunnelRepo } from '../funnels/funnel.repo';
import { createPixelService } from './pixel.service';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const DAY = 24 * 3_600_000;
const PIXEL = { pixelId: '1234567890', accessToken: 'EAAB-access-token-1', testEventCode: null };
const CONTEXT = { ip: '198.51.100.7', userAgent: 'Mozilla/5.0 (connection)' };

const request = (
  idFunnel: string,
  token: string,
  eventData: Partial<PixelRequest['eventData']> = {},
): PixelRequest => ({
  idFunnel,
  token,
  eventData: { eventName: 'Lead', ...eventData },
});

describe.each(TEST_DIALECTS)('pixel calls on %s', (dialect) => {
  const t = useServices(dialect);
  let clock = NOW;
  const setup = () => {
    clock = NOW;
    const pixels = createPixelRepo(t.db, dialect);
    const service = createPixelService({
      pixels,
      funnels: createFunnelRepo(t.db),
      leads: t.services.progress,
      now: () => clock,
    });
    return { pixels, service };
  };
  const funnelWith = async (owner: Account, pixel?: Partial<typeof PIXEL>) =>
    (await newFunnel(t.services, owner, { funnel: { name: 'Pixel funnel', ...(pixel ? { pixel } : {}) } }))
      .funnel;
  /** A lead of the funnel, and its link's token. */
  const leadOf = async (owner: Account, funnelId: string) =>
    (await t.services.leads.create(owner, funnelId, { name: 'Rosa' })).token;
  const payloadOf = async (eventId: string) => {
    const row = await createPixelRepo(t.db, dialect).findByEventId(eventId);
    return row && ServerEvent.parse(JSON.parse(row.payload));
  };

  it('answers PIXEL_NOT_CONFIGURED and stores nothing for a lead of a funnel without a complete pixel', async () => {
    const { service } = setup();
    const owner = await newAccount(t.services);
    const none = await funnelWith(owner);
    const idOnly = await funnelWith(owner, { pixelId: '1234567890' });
    const tokenOnly = await funnelWith(owner, { accessToken: 'EAAB-access-token-1' });
    const leads = await Promise.all([none, idOnly, tokenOnly].map((f) => leadOf(owner, f.id)));
    const before = await rowCounts(t.db);
    for (const [i, funnel] of [none, idOnly, tokenOnly].entries()) {
      expect(
        await service.record(request(funnel.id, leads[i] ?? '', { eventId: 'event-unconfigured' }), CONTEXT),
      ).toEqual({ success: false, message: 'PIXEL_NOT_CONFIGURED' });
    }
    expect(await rowCounts(t.db)).toEqual(before);
  });

  it('answers an unknown token, or a lead of another funnel or account, as an unknown token, and stores nothing', async () => {
    const { service } = setup();
    const owner = await newAccount(t.services);
    const stranger = await newAccount(t.services);
    const funnel = await funnelWith(owner, PIXEL);
    const sibling = await funnelWith(owner, PIXEL);
    const foreign = await funnelWith(stranger, PIXEL);
    const tokens = [
      'AbCdEfGhIjKlMnOpQrStUvWxYz012345',
      await leadOf(owner, sibling.id),
      await leadOf(stranger, foreign.id),
    ];
    const before = await rowCounts(t.db);
    for (const idFunnel of [funnel.id, 'no-such-funnel']) {
      for (const token of tokens) {
        expect(
          await service.record(request(idFunnel, token, { eventId: 'event-foreign-1' }), CONTEXT),
        ).toEqual({
          codeResponse: 404,
          result: false,
          message: 'DONT_EXIST_TOKEN_OR_URL',
        });
      }
    }
    expect(await rowCounts(t.db)).toEqual(before);
  });

  it('stores one Conversions API event for a configured pixel', async () => {
    const { service, pixels } = setup();
    const owner = await newAccount(t.services);
    const funnel = await funnelWith(owner, PIXEL);
    const token = await leadOf(owner, funnel.id);
    const answer = await service.record(
      request(funnel.id, token, {
        eventName: 'Lead',
        eventId: 'event-configured-1',
        eventSource: 'https://acme.example.com/clase-1',
        eventTime: '2026-03-10T11:59:30.900Z',
      }),
      CONTEXT,
    );
    expect(answer).toEqual({ success: true });
    const rows = await pixels.listByFunnel(funnel.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      eventId: 'event-configured-1',
      accountId: owner.id,
      funnelId: funnel.id,
      attempts: 0,
      nextAttemptAt: NOW,
      createdAt: NOW,
      deliveredAt: null,
      droppedAt: null,
      lastError: null,
    });
    expect(JSON.parse(rows[0]?.payload ?? '')).toEqual({
      event_name: 'Lead',
      event_time: Math.floor(Date.UTC(2026, 2, 10, 11, 59, 30) / 1000),
      event_id: 'event-configured-1',
      action_source: 'website',
      event_source_url: 'https://acme.example.com/clase-1',
      user_data: { client_ip_address: '198.51.100.7', client_user_agent: 'Mozilla/5.0 (connection)' },
    });
  });

  it('names the page without the lead’s token, the query or the fragment', async () => {
    const { service } = setup();
    const owner = await newAccount(t.services);
    const funnel = await funnelWith(owner, PIXEL);
    const token = await leadOf(owner, funnel.id);
    const cases = [
      [`https://app.example.com/${owner.slug}/${token}`, `https://app.example.com/${owner.slug}`],
      [
        `https://app.example.com/${owner.slug}/${token}/?utm_source=fb#top`,
        `https://app.example.com/${owner.slug}`,
      ],
      [`https://clases.example.com/${token}?fbclid=IwAR0&token=${token}`, 'https://clases.example.com/'],
      [
        `https://clases.example.com/${encodeURIComponent(token).replace(/[A-Z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)}`,
        'https://clases.example.com/',
      ],
      [`https://user:${token}@clases.example.com/${token}`, 'https://clases.example.com/'],
      ['https://acme.example.com/clase-1?x=1', 'https://acme.example.com/clase-1'],
      [`javascript:alert('${token}')`, undefined],
    ] as const;
    for (const [i, [source, expected]] of cases.entries()) {
      const eventId = `event-source-${i}-abc`;
      expect(
        await service.record(request(funnel.id, token, { eventId, eventSource: source }), CONTEXT),
      ).toEqual({
        success: true,
      });
      clock += DAY; // one event a day: the limit is another test's
      const stored = await createPixelRepo(t.db, dialect).findByEventId(eventId);
      expect(stored?.payload, source).not.toContain(token);
      expect((await payloadOf(eventId))?.event_source_url, source).toBe(expected);
    }
  });

  it('stores at most 5 events of a lead in any 24 hours; a retried one is still stored once', async () => {
    const { service, pixels } = setup();
    const owner = await newAccount(t.services);
    const funnel = await funnelWith(owner, PIXEL);
    const [token, other] = [await leadOf(owner, funnel.id), await leadOf(owner, funnel.id)];
    const send = (eventId: string, lead = token) =>
      service.record(request(funnel.id, lead, { eventId }), CONTEXT);
    for (let i = 0; i < 5; i++) {
      expect(await send(`event-cap-${i}-abc`)).toEqual({ success: true });
      clock += 3_600_000;
    }
    const limited = { success: false, message: 'PIXEL_EVENT_LIMIT' };
    expect(await send('event-cap-5-abc')).toEqual(limited);
    // The browser retrying an event already stored is answered as it was the first time.
    expect(await send('event-cap-4-abc')).toEqual({ success: true });
    expect(await send('event-cap-other-abc', other)).toEqual({ success: true });
    // The first event is 24 hours old: one more may go, and no more.
    clock = NOW + DAY - 1;
    expect(await send('event-cap-6-abc')).toEqual(limited);
    clock = NOW + DAY;
    expect(await send('event-cap-7-abc')).toEqual({ success: true });
    expect(await send('event-cap-8-abc')).toEqual(limited);
    const stored = (await pixels.listByFunnel(funnel.id)).map((r) => r.eventId);
    expect(stored.sort()).toEqual(
      [
        'event-cap-0-abc',
        'event-cap-1-abc',
        'event-cap-2-abc',
        'event-cap-3-abc',
        'event-cap-4-abc',
        'event-cap-7-abc',
        'event-cap-other-abc',
      ].sort(),
    );
  });

  it('sends the connection’s ip and agent, never the body’s, and makes up an event id and time when none is given', async () => {
    const { service, pixels } = setup();
    const owner = await newAccount(t.services);
    const funnel = await funnelWith(owner, PIXEL);
    const token = await leadOf(owner, funnel.id);
    await service.record(request(funnel.id, token, { ip: '2001:db8::1', agent: 'Browser/1.0' }), CONTEXT);
    await service.record(request(funnel.id, token, { ip: 'not an ip', eventTime: NOW + 3_600_000 }), {
      ip: '203.0.113.9',
      userAgent: undefined,
    });
    await service.record(request(funnel.id, token, { ip: '2001:db8::2', agent: 'Browser/2.0' }), {
      ip: 'not an ip',
      userAgent: undefined,
    });
    const rows = await pixels.listByFunnel(funnel.id);
    expect(rows).toHaveLength(3);
    const [first, second, third] = rows.map((row) => ServerEvent.parse(JSON.parse(row.payload)));
    expect(first?.event_id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(first?.event_id).not.toEqual(second?.event_id);
    expect(first?.event_time).toBe(NOW / 1000);
    expect(first?.user_data).toEqual({
      client_ip_address: '198.51.100.7',
      client_user_agent: 'Mozilla/5.0 (connection)',
    });
    expect(second?.user_data).toEqual({ client_ip_address: '203.0.113.9' });
    // A time ahead of ours would make Meta refuse the whole batch, and so would an address that is
    // not one: left out, and the body's is not used in its place.
    expect(second?.event_time).toBe(NOW / 1000);
    expect(third?.user_data).toEqual({});
  });

  it('stores a retried call with the same event id once', async () => {
    const { service, pixels } = setup();
    const owner = await newAccount(t.services);
    const funnel = await funnelWith(owner, PIXEL);
    const call = request(funnel.id, await leadOf(owner, funnel.id), { eventId: 'event-retried-twice' });
    expect(await service.record(call, CONTEXT)).toEqual({ success: true });
    expect(await service.record(call, CONTEXT)).toEqual({ success: true });
    expect(await pixels.listByFunnel(funnel.id)).toHaveLength(1);
  });

  it('cuts the user agent to 500 characters', async () => {
    const { service } = setup();
    const owner = await newAccount(t.services);
    const funnel = await funnelWith(owner, PIXEL);
    const long = `Mozilla/5.0 ${'x'.repeat(1900)}`;
    const token = await leadOf(owner, funnel.id);
    await service.record(request(funnel.id, token, { eventId: 'event-long-agent-1', agent: 'Browser/1.0' }), {
      ...CONTEXT,
      userAgent: long,
    });
    const agent = (await payloadOf('event-long-agent-1'))?.user_data.client_user_agent;
    expect(agent).toHaveLength(500);
    expect(agent).toBe(long.slice(0, 500));
  });
});
