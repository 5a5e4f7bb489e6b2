/**
 * An experiment for bench row 9, not part of `npm run bench`: `analytics rebuild` replays an account's
 * raw rows table by table in id order, and ids are random (SHA-256 of the event), so each batch of
 * 2,000 video records touches about 2,000 sessions and leads, whose state rows are read, parsed and
 * written again by nearly every batch. This replays the same rows through the same `apply` of the
 * database rollups, but a page of leads at a time with all their rows (sessions, records, actions,
 * conversions; by the indexes on lead_id), so each state row is written once. Then it prints the page's
 * numbers and the time, to compare with the service's rebuild of the same database:
 *
 *   npx tsx bench/lib/analytics-rebuild-experiment.ts <database url> <data JSON> [service|by-lead] [cache MB]
 *
 * The last argument gives the SQLite connection that rebuilds a page cache of that many MB.
 */
import { readFileSync } from 'node:fs';
import { DEV_BASE_DOMAINS } from '@embudo/contracts';
import { sql } from 'kysely';
import { openDatabase } from '../../apps/server/src/db';
import { dayOfText, dayOfZone } from '../../apps/server/src/lib/zone-days';
import { createAnalyticsRepo } from '../../apps/server/src/modules/analytics/analytics.repo';
import { createDatabaseRollups } from '../../apps/server/src/modules/analytics/database-rollups';
import type { RawEvent } from '../../apps/server/src/modules/analytics/rollup-batch';
import { videoRecordDetails } from '../../apps/server/src/modules/analytics/video-record-details';
import { createServices } from '../../apps/server/src/services';
import { BUTTON_SECONDS, type AnalyticsData } from './analytics-data';

const LEADS_PER_BATCH = 300;

async function main(): Promise<void> {
  const [url, file, how = 'by-lead', cacheMb] = process.argv.slice(2) as [
    string,
    string,
    string | undefined,
    string | undefined,
  ];
  const data = JSON.parse(readFileSync(file, 'utf8')) as AnalyticsData;
  const handle = openDatabase(url);
  // A larger SQLite page cache for this connection than the server's default (2 MB), when asked.
  if (cacheMb !== undefined && handle.dialect === 'sqlite')
    await sql.raw(`pragma cache_size = -${String(Number(cacheMb) * 1000)}`).execute(handle.db);
  const repo = createAnalyticsRepo(handle.dialect);
  const rollups = createDatabaseRollups({ db: handle.db, analytics: repo });
  const started = Date.now();
  let counted = { leads: 0, sessions: 0, videoRecords: 0, actions: 0, conversions: 0 };
  if (how === 'service') {
    const services = await createServices(handle, {
      publicUrl: 'http://127.0.0.1:3000',
      baseDomains: [...DEV_BASE_DOMAINS],
      geoDatabase: 'off',
    });
    counted = await services.analytics.rebuild(data.accountId);
  } else {
    const dayOf = dayOfZone(data.timeZone);
    await handle.db.transaction().execute(async (trx) => {
      await repo.deleteAccount(trx, data.accountId);
      let after = '';
      for (;;) {
        const leads = await trx
          .selectFrom('leads')
          .select(['id', 'funnelId', 'createdAt'])
          .where('accountId', '=', data.accountId)
          .where('id', '>', after)
          .orderBy('id')
          .limit(LEADS_PER_BATCH)
          .execute();
        if (leads.length === 0) break;
        after = leads.at(-1)?.id ?? after;
        const ids = leads.map((lead) => lead.id);
        const [sessions, records, actions, conversions] = await Promise.all([
          trx
            .selectFrom('pageSessions')
            .select(['id', 'leadId', 'funnelId', 'pageId', 'startAt', 'endReason'])
            .where('leadId', 'in', ids)
            .execute(),
          trx
            .selectFrom('videoRecords')
            .select([
              'id',
              'pageSessionId',
              'leadId',
              'startViewTime',
              'endViewTime',
              'startTimeVideo',
              'endTimeVideo',
              'details',
            ])
            .where('leadId', 'in', ids)
            .execute(),
          trx
            .selectFrom('actions')
            .select(['id', 'pageSessionId', 'leadId', 'action', 'receivedAt'])
            .where('leadId', 'in', ids)
            .execute(),
          trx
            .selectFrom('conversions')
            .select(['id', 'leadId', 'funnelId', 'pageId', 'kind', 'createdAt'])
            .where('leadId', 'in', ids)
            .execute(),
        ]);
        const events: RawEvent[] = [
          ...leads.map((row) => ({ kind: 'lead' as const, row })),
          ...sessions.map((row) => ({ kind: 'session' as const, row })),
          ...records.map(({ details, ...row }) => ({
            kind: 'videoRecord' as const,
            row: { ...row, ...videoRecordDetails(details) },
          })),
          ...actions.map((row) => ({ kind: 'action' as const, row })),
          ...conversions.map((row) => ({ kind: 'conversion' as const, row })),
        ];
        await rollups.apply(trx, events, () => dayOf);
        counted.leads += leads.length;
        counted.sessions += sessions.length;
        counted.videoRecords += records.length;
        counted.actions += actions.length;
        counted.conversions += conversions.length;
      }
    });
  }
  const seconds = (Date.now() - started) / 1000;
  const numbers = await rollups.pageNumbers(
    { id: data.pageId, funnelId: data.funnelId, position: 0, buttonTimeSeconds: BUTTON_SECONDS },
    { from: dayOfText(data.from), to: dayOfText(data.to) },
  );
  process.stdout.write(
    `${JSON.stringify({ how, cacheMb, seconds, counted, numbers: JSON.stringify(numbers).length, digest: digest(JSON.stringify(numbers)) })}\n`,
  );
  await handle.close();
}

/** A short fingerprint of an answer, to see that two rebuilds give the same numbers. */
function digest(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16);
}

void main();
