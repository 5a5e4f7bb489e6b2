import type { Account, PixelRequest } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, rowCounts, useServices } from '../../../test/fixtures';
import { ServerEvent } from './meta-capi';
import { createPixelRepo } from './pixel.repo';
import { createPixelService } from './pixel.service';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const PIXEL = { pixelId: '1234567890', accessToken: 'EAAB-access-token-1', testEventCode: null };
const CONTEXT = { ip: '198.51.100.7', userAgent: 'Mozilla/5.0 (connection)' };

const request = (idFunnel: string, eventData: Partial<PixelRequest['eventData']> = {}): PixelRequest => ({
  idFunnel,
  eventData: { eventName: 'Lead', ...eventData },
});

describe.each(TEST_DIALECTS)('pixel calls on %s', (dialect) => {
  const t = useServices(dialect);
  const setup = () => {
    const pixels = createPixelRepo(t.db, dialect);
    const service = createPixelService({ pixels, funnels: t.services.repos.funnels, now: () => NOW });
    return { pixels, service };
  };
  const funnelWith = async (owner: Account, pixel?: Partial<typeof PIXEL>) =>
    (await newFunnel(t.services, owner, { funnel: { name: 'Pixel funnel', ...(pixel ? { pixel } : {}) } }))
      .funnel;
  const payloadOf = async (eventId: string) => {
    const row = await createPixelRepo(t.db, dialect).findByEventId(eventId);
    return row && ServerEvent.parse(JSON.parse(row.payload));
  };

  it('answers PIXEL_NOT_CONFIGURED and stores nothing for a funnel without a complete pixel', async () => {
    const { service } = setup();
    const owner = await newAccount(t.services);
    const none = await funnelWith(owner);
    const idOnly = await funnelWith(owner, { pixelId: '1234567890' });
    const tokenOnly = await funnelWith(owner, { accessToken: 'EAAB-access-token-1' });
    const before = await rowCounts(t.db);
    for (const idFunnel of [none.id, idOnly.id, tokenOnly.id, 'no-such-funnel']) {
      expect(await service.record(request(idFunnel, { eventId: 'event-unconfigured' }), CONTEXT)).toEqual({
        success: false,
        message: 'PIXEL_NOT_CONFIGURED',
      });
    }
    expect(await rowCounts(t.db)).toEqual(before);
  });

  it('stores one Conversions API event for a configured pixel', async () => {
    const { service, pixels } = setup();
    const owner = await newAccount(t.services);
    const funnel = await funnelWith(owner, PIXEL);
    const answer = await service.record(
      request(funnel.id, {
        eventName: 'CompleteRegistration',
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
      event_name: 'CompleteRegistration',
      event_time: Math.floor(Date.UTC(2026, 2, 10, 11, 59, 30) / 1000),
      event_id: 'event-configured-1',
      action_source: 'website',
      event_source_url: 'https://acme.example.com/clase-1',
      user_data: { client_ip_address: '198.51.100.7', client_user_agent: 'Mozilla/5.0 (connection)' },
    });
  });

  it('prefers the browser’s ip and agent, and makes up an event id and time when none is given', async () => {
    const { service, pixels } = setup();
    const owner = await newAccount(t.services);
    const funnel = await funnelWith(owner, PIXEL);
    await service.record(request(funnel.id, { ip: '2001:db8::1', agent: 'Browser/1.0' }), CONTEXT);
    await service.record(request(funnel.id, { ip: 'not an ip', eventTime: NOW + 3_600_000 }), {
      ip: '203.0.113.9',
      userAgent: undefined,
    });
    const rows = await pixels.listByFunnel(funnel.id);
    expect(rows).toHaveLength(2);
    const [first, second] = rows.map((row) => ServerEvent.parse(JSON.parse(row.payload)));
    expect(first?.event_id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(first?.event_id).not.toEqual(second?.event_id);
    expect(first?.event_time).toBe(NOW / 1000);
    expect(first?.user_data).toEqual({ client_ip_address: '2001:db8::1', client_user_agent: 'Browser/1.0' });
    // An address that is not one would make Meta refuse the whole batch; a time ahead of ours too.
    expect(second?.user_data).toEqual({ client_ip_address: '203.0.113.9' });
    expect(second?.event_time).toBe(NOW / 1000);
  });

  it('stores a retried call with the same event id once', async () => {
    const { service, pixels } = setup();
    const owner = await newAccount(t.services);
    const funnel = await funnelWith(owner, PIXEL);
    const call = request(funnel.id, { eventId: 'event-retried-twice' });
    expect(await service.record(call, CONTEXT)).toEqual({ success: true });
    expect(await service.record(call, CONTEXT)).toEqual({ success: true });
    expect(await pixels.listByFunnel(funnel.id)).toHaveLength(1);
  });

  it('cuts the user agent to 500 characters', async () => {
    const { service } = setup();
    const owner = await newAccount(t.services);
    const funnel = await funnelWith(owner, PIXEL);
    const long = `Mozilla/5.0 ${'x'.repeat(1900)}`;
    await service.record(request(funnel.id, { eventId: 'event-long-agent-1', agent: long }), CONTEXT);
    await service.record(request(funnel.id, { eventId: 'event-long-agent-2' }), {
      ...CONTEXT,
      userAgent: long,
    });
    for (const eventId of ['event-long-agent-1', 'event-long-agent-2']) {
      const agent = (await payloadOf(eventId))?.user_data.client_user_agent;
      expect(agent).toHaveLength(500);
      expect(agent).toBe(long.slice(0, 500));
    }
  });
});
