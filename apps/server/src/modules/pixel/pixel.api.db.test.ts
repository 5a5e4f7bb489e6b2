import { randomUUID } from 'node:crypto';
import { Funnel, SuccessAnswer } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { api } from '../../../test/server';
import {
  PREFIXES,
  expectRefusal,
  expectVisitorError,
  newLead,
  read,
  useVisitorServer,
} from '../../../test/visitor';

/**
 * POST /funnel/track/pixel makes the owner's pixel tell Meta something, with the owner's access
 * token: only a lead of that funnel may, only with the events the pages send, only a few a day, and
 * what it sends never carries the lead's link (a credential).
 */

const PIXEL = { pixelId: '1234567890', accessToken: 'EAAB-pixel-api-token' };

describe.each(TEST_DIALECTS)('POST /funnel/track/pixel on %s', (dialect) => {
  const h = useVisitorServer(dialect);
  const db = () => h.server.database.db;

  async function pixelFunnel(key = h.demo.apiKey): Promise<Funnel> {
    const created = await api(h.server, 'POST', '/api/owner/funnels', {
      key,
      body: { name: `Pixel ${randomUUID()}`, pixel: PIXEL },
    });
    expect(created.status, created.text).toBe(201);
    return read(Funnel, created);
  }
  const outboxOf = (funnelId: string) =>
    db().selectFrom('pixelOutbox').selectAll().where('funnelId', '=', funnelId).orderBy('id').execute();
  const send = (prefix: string, body: Record<string, unknown>) =>
    api(h.server, 'POST', `${prefix}/funnel/track/pixel`, {
      body,
      headers: { 'user-agent': 'PixelApi/1.0' },
    });
  const click = (idFunnel: string, token: string | undefined, eventData: Record<string, unknown> = {}) => ({
    idFunnel,
    ...(token === undefined ? {} : { token }),
    eventData: { eventName: 'Lead', eventId: `evt-${randomUUID()}`, ...eventData },
  });

  it('refuses a call without a lead token with 400 naming body.token, and queues nothing', async () => {
    const funnel = await pixelFunnel();
    for (const prefix of PREFIXES) {
      const answer = await send(prefix, click(funnel.id, undefined, { eventName: 'Purchase' }));
      const error = expectVisitorError(answer, 400);
      expect(
        error.issues?.map((i) => i.path),
        prefix,
      ).toContain('body.token');
    }
    expect(await outboxOf(funnel.id)).toEqual([]);
  });

  it('answers an unknown token, a lead of another funnel and a lead of another account as an unknown token, and queues nothing', async () => {
    const funnel = await pixelFunnel();
    const sibling = await pixelFunnel();
    const elsewhere = h.demo.otherAccounts[0] ?? expect.unreachable('the demo has another account');
    const foreignFunnel = await pixelFunnel(elsewhere.apiKey);
    const tokens = {
      unknown: 'AbCdEfGhIjKlMnOpQrStUvWxYz012345',
      'another funnel’s lead': (await newLead(h, sibling.id)).token,
      'another account’s lead': await (async () => {
        const answer = await api(h.server, 'POST', `/api/owner/funnels/${foreignFunnel.id}/leads`, {
          key: elsewhere.apiKey,
          body: { name: 'Ajena' },
        });
        expect(answer.status, answer.text).toBe(201);
        return (answer.body as { token: string }).token;
      })(),
    };
    for (const prefix of PREFIXES) {
      for (const [label, token] of Object.entries(tokens)) {
        const answer = await send(prefix, click(funnel.id, token));
        expectRefusal(answer, 404, 'DONT_EXIST_TOKEN_OR_URL');
        expect(answer.text, `${prefix} ${label}`).not.toContain('PIXEL');
      }
    }
    expect(await outboxOf(funnel.id)).toEqual([]);
    expect(await outboxOf(sibling.id)).toEqual([]);
    expect(await outboxOf(foreignFunnel.id)).toEqual([]);
  });

  it('refuses a lead of an inactive account with 403 INACTIVE_SUBSCRIPTION, and queues nothing', async () => {
    const owner = await h.server.services.accounts.create({
      slug: `lapsed-${randomUUID().slice(0, 8)}`,
      name: 'L',
    });
    const funnel = await pixelFunnel(owner.apiKey);
    const lead = await api(h.server, 'POST', `/api/owner/funnels/${funnel.id}/leads`, {
      key: owner.apiKey,
      body: { name: 'Inés' },
    });
    expect(lead.status, lead.text).toBe(201);
    const token = (lead.body as { token: string }).token;
    await h.server.services.accounts.setSubscription(owner.account.id, 'inactive');
    for (const prefix of PREFIXES) {
      expectRefusal(await send(prefix, click(funnel.id, token)), 403, 'INACTIVE_SUBSCRIPTION');
    }
    expect(await outboxOf(funnel.id)).toEqual([]);
  });

  it('refuses an event name the pages never send with 400 naming body.eventData.eventName', async () => {
    const funnel = await pixelFunnel();
    const lead = await newLead(h, funnel.id);
    for (const prefix of PREFIXES) {
      for (const eventName of ['Purchase', 'CompleteRegistration', 'PageView', 'lead', '']) {
        const answer = await send(prefix, click(funnel.id, lead.token, { eventName }));
        const error = expectVisitorError(answer, 400);
        expect(
          error.issues?.map((i) => i.path),
          `${prefix} ${eventName}`,
        ).toContain('body.eventData.eventName');
      }
    }
    expect(await outboxOf(funnel.id)).toEqual([]);
  });

  it('queues a lead’s click once, retried or not, naming the page without the token, the query or the fragment', async () => {
    const funnel = await pixelFunnel();
    const lead = await newLead(h, funnel.id);
    const link = `${h.server.url}/${h.demo.accountSlug}/${lead.token}`;
    const eventId = `evt-${randomUUID()}`;
    for (const prefix of PREFIXES) {
      const answer = await send(
        prefix,
        click(funnel.id, lead.token, {
          eventId,
          eventSource: `${link}?utm_source=fb&t=${lead.token}#${lead.token}`,
        }),
      );
      expect(answer.status, answer.text).toBe(200);
      expect(read(SuccessAnswer, answer)).toEqual({ success: true });
    }
    const rows = await outboxOf(funnel.id);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]?.payload ?? '{}')).toMatchObject({
      event_name: 'Lead',
      event_id: eventId,
      event_source_url: `${h.server.url}/${h.demo.accountSlug}`,
      user_data: { client_ip_address: '127.0.0.1', client_user_agent: 'PixelApi/1.0' },
    });
    expect(JSON.stringify(rows)).not.toContain(lead.token);
  });

  it('queues at most 5 events of one lead a day, then answers PIXEL_EVENT_LIMIT and queues nothing; other leads go on', async () => {
    const funnel = await pixelFunnel();
    const [flooder, other, racer] = [
      await newLead(h, funnel.id),
      await newLead(h, funnel.id),
      await newLead(h, funnel.id),
    ];
    const answers: unknown[] = [];
    for (let i = 0; i < 8; i++) {
      const answer = await send(PREFIXES[i % 2] ?? '/api', click(funnel.id, flooder.token));
      expect(answer.status, answer.text).toBe(200);
      answers.push(answer.body);
    }
    expect(answers).toEqual([
      ...Array.from({ length: 5 }, () => ({ success: true })),
      ...Array.from({ length: 3 }, () => ({ success: false, message: 'PIXEL_EVENT_LIMIT' })),
    ]);
    expect(await outboxOf(funnel.id)).toHaveLength(5);

    // Another lead of the funnel is not held back by the first one's flood.
    const answer = await send('/api', click(funnel.id, other.token));
    expect(answer.body).toEqual({ success: true });

    // Twenty at once from one lead: still 5, on both databases.
    const racing = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(PREFIXES[i % 2] ?? '/api', click(funnel.id, racer.token))),
    );
    expect(racing.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(racing.filter((a) => read(SuccessAnswer, a).success)).toHaveLength(5);
    expect(await outboxOf(funnel.id)).toHaveLength(5 + 1 + 5);
  });
});
