import { sql, type Kysely } from 'kysely';

/**
 * Pixel events belong to a lead (issue 16): each outbox row names the lead whose page sent it and its
 * event name, so that the number of events a lead may queue is counted on an index.
 *
 * And the lead links already stored leave: until now the event's event_source_url was the page's
 * whole address, the lead's link (`{base}/{slug}/{token}` or `{domain}/{token}`, with its query),
 * which made pixel_outbox the one table holding working tokens in clear. Each stored address keeps
 * its origin and its path without the token, and loses its query and fragment, as the server now
 * stores them. Rows are rewritten in JavaScript, the same on SQLite and PostgreSQL; the rest of each
 * payload is left as it was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pixel_outbox').addColumn('lead_id', 'text').execute();
  await db.schema.alterTable('pixel_outbox').addColumn('event_name', 'text').execute();
  await db.schema
    .createIndex('pixel_outbox_lead_events')
    .on('pixel_outbox')
    .columns(['lead_id', 'event_name', 'created_at'])
    .execute();
  await withoutLeadLinks(db);
}

/** Rows read at a time. */
const CHUNK = 500;

/**
 * A token as the links carried them (lib/tokens.ts TOKEN_SHAPE, written out here so that this
 * migration stays what it is when that changes).
 */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,}$/;

/**
 * The address without the lead's link in it: origin and path, the last segment left out when it is
 * shaped like a token (a lead link always ends with its token; a slug of 20 characters or more
 * before it stays), no query, no fragment, no user or password. Undefined when nothing changes.
 */
export function withoutLeadToken(address: string): string | undefined {
  if (!URL.canParse(address)) return undefined;
  const url = new URL(address);
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const last = segments.at(-1);
  if (last !== undefined && TOKEN_SHAPE.test(last)) segments.pop();
  const cleaned = `${url.origin}/${segments.join('/')}`;
  return cleaned === address ? undefined : cleaned;
}

async function withoutLeadLinks(db: Kysely<unknown>): Promise<void> {
  let after = -1;
  for (;;) {
    const { rows } = await sql<{ id: number | string; payload: string }>`
      select id, payload from pixel_outbox
      where id > ${after} and payload like ${'%"event_source_url"%'}
      order by id limit ${CHUNK}`.execute(db);
    for (const row of rows) {
      const payload = parsed(row.payload);
      const address = payload?.event_source_url;
      if (!payload || typeof address !== 'string') continue;
      const cleaned = withoutLeadToken(address);
      if (cleaned === undefined) continue;
      await sql`update pixel_outbox set payload = ${JSON.stringify({ ...payload, event_source_url: cleaned })}
        where id = ${row.id}`.execute(db);
    }
    const last = rows.at(-1);
    if (!last || rows.length < CHUNK) return;
    after = Number(last.id);
  }
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
