import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS, databaseMigratedTo } from '../../../test/databases';
import { migrate, type DatabaseHandle } from '../index';

/**
 * Before issue 16 the pixel stored the page's whole address as Meta's event_source_url: the lead's
 * link, `{base}/{slug}/{token}` or `{domain}/{token}`, with its query. That made pixel_outbox the only
 * table holding working tokens in clear. Migrating takes them out of the rows already stored.
 */

const TOKENS = {
  base: 'Qm9vdHN0cmFwVG9rZW5CYXNlMDEyMzQ1',
  custom: 'Q3VzdG9tRG9tYWluVG9rZW4tXzAxMjM0',
  longSlug: 'TG9uZ1NsdWdUb2tlbl9fX19fXzAxMjM0',
  delivered: 'RGVsaXZlcmVkVG9rZW5fX19fXzAxMjM0',
  fragment: 'RnJhZ21lbnRUb2tlbl9fX19fXzAxMjM0',
} as const;

/** The rows as the code before issue 16 stored them, and the address each must be left with. */
const ROWS = [
  {
    eventId: 'old-base-link-1',
    source: `http://127.0.0.1:3000/acme/${TOKENS.base}`,
    expected: 'http://127.0.0.1:3000/acme',
  },
  {
    eventId: 'old-custom-domain-1',
    source: `https://clases.example.com/${TOKENS.custom}?utm_source=fb&fbclid=IwAR0abc`,
    expected: 'https://clases.example.com/',
  },
  {
    // A slug of 20 characters or more looks like a token too: only the link's last segment goes.
    eventId: 'old-long-slug-1',
    source: `https://app.example.com/academia-de-marketing-2026/${TOKENS.longSlug}/`,
    expected: 'https://app.example.com/academia-de-marketing-2026',
  },
  {
    eventId: 'old-delivered-1',
    source: `https://app.example.com/acme/${TOKENS.delivered}`,
    expected: 'https://app.example.com/acme',
    deliveredAt: 1_773_000_000_000,
  },
  {
    eventId: 'old-fragment-1',
    source: `https://app.example.com/acme/${TOKENS.fragment}#${TOKENS.fragment}`,
    expected: 'https://app.example.com/acme',
  },
  // Addresses without a token, and an event without an address, stay exactly as they are.
  {
    eventId: 'old-no-token-1',
    source: 'https://acme.example.com/clase-1',
    expected: 'https://acme.example.com/clase-1',
  },
  { eventId: 'old-no-address-1', source: undefined, expected: undefined },
] as const;

function oldPayload(eventId: string, source: string | undefined): string {
  // Key for key what pixel.service.ts's toServerEvent wrote then.
  return JSON.stringify({
    event_name: 'Lead',
    event_time: 1_772_900_000,
    event_id: eventId,
    action_source: 'website',
    ...(source === undefined ? {} : { event_source_url: source }),
    user_data: { client_ip_address: '198.51.100.7', client_user_agent: 'Mozilla/5.0 (X11; Linux x86_64)' },
  });
}

describe.each(TEST_DIALECTS)('pixel_outbox rows stored before issue 16, migrated on %s', (dialect) => {
  let handle: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ handle, drop } = await databaseMigratedTo(dialect, '0006-content-versions'));
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });

  it('keep their page without the lead token, the query or the fragment; the rest of each row is unchanged', async () => {
    const db = handle?.db ?? expect.unreachable('no database');
    const columns = [
      'id',
      'eventId',
      'accountId',
      'funnelId',
      'attempts',
      'nextAttemptAt',
      'deliveredAt',
      'droppedAt',
      'lastError',
      'createdAt',
    ] as const;
    for (const [i, row] of ROWS.entries()) {
      await db
        .insertInto('pixelOutbox')
        .values({
          eventId: row.eventId,
          accountId: 'account-1',
          funnelId: 'funnel-1',
          payload: oldPayload(row.eventId, row.source),
          attempts: i,
          nextAttemptAt: 1_772_900_000_000 + i,
          deliveredAt: 'deliveredAt' in row ? row.deliveredAt : null,
          droppedAt: null,
          lastError: i === 2 ? 'HTTP 500: Service temporarily unavailable' : null,
          createdAt: 1_772_900_000_000,
        })
        .execute();
    }
    const before = await db.selectFrom('pixelOutbox').select(columns).orderBy('id').execute();

    await migrate(handle ?? expect.unreachable('no database'));

    expect(await db.selectFrom('pixelOutbox').select(columns).orderBy('id').execute()).toEqual(before);
    const after = await db.selectFrom('pixelOutbox').select(['eventId', 'payload']).orderBy('id').execute();
    expect(after.map((r) => r.eventId)).toEqual(ROWS.map((r) => r.eventId));
    for (const [i, row] of ROWS.entries()) {
      const stored = after[i]?.payload ?? '';
      for (const token of Object.values(TOKENS)) expect(stored, row.eventId).not.toContain(token);
      const expected = JSON.parse(oldPayload(row.eventId, row.expected)) as unknown;
      expect(JSON.parse(stored), row.eventId).toStrictEqual(expected);
      // Rows that needed no change keep their very text.
      if (row.source === row.expected) expect(stored).toBe(oldPayload(row.eventId, row.source));
    }
  });
});
