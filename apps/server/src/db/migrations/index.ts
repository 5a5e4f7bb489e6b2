import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../dialect';
import * as initial from './0001-initial';
import * as leadIp from './0002-lead-ip';
import * as sessionEndDetails from './0003-session-end-details';
import * as resumePointTime from './0004-resume-point-time';
import * as videoPositionsDouble from './0005-video-positions-double';
import * as contentVersions from './0006-content-versions';
import * as pixelEventsOfLeads from './0007-pixel-events-of-leads';
import * as studioPeople from './0008-studio-people';
import * as leadSearch from './0009-lead-search';
import * as analytics from './0010-analytics';
import * as domainVerification from './0011-domain-verification';
import * as analyticsPageVersions from './0012-analytics-page-versions';
import * as analyticsWrites from './0013-analytics-writes';
import * as openSessionsIndex from './0014-open-sessions-index';
import * as visitorContextChanges from './0015-visitor-context-changes';

/** Migrations in order. Each takes the dialect for the rare type that differs (architecture §5.11). */
export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': { up: (db: Kysely<unknown>) => initial.up(db, dialect) },
    '0002-lead-ip': { up: (db: Kysely<unknown>) => leadIp.up(db) },
    '0003-session-end-details': { up: (db: Kysely<unknown>) => sessionEndDetails.up(db) },
    '0004-resume-point-time': { up: (db: Kysely<unknown>) => resumePointTime.up(db) },
    '0005-video-positions-double': { up: (db: Kysely<unknown>) => videoPositionsDouble.up(db, dialect) },
    '0006-content-versions': { up: (db: Kysely<unknown>) => contentVersions.up(db, dialect) },
    '0007-pixel-events-of-leads': { up: (db: Kysely<unknown>) => pixelEventsOfLeads.up(db) },
    '0008-studio-people': { up: (db: Kysely<unknown>) => studioPeople.up(db) },
    '0009-lead-search': { up: (db: Kysely<unknown>) => leadSearch.up(db, dialect) },
    '0010-analytics': { up: (db: Kysely<unknown>) => analytics.up(db, dialect) },
    '0011-domain-verification': { up: (db: Kysely<unknown>) => domainVerification.up(db) },
    '0012-analytics-page-versions': { up: (db: Kysely<unknown>) => analyticsPageVersions.up(db, dialect) },
    '0013-analytics-writes': { up: (db: Kysely<unknown>) => analyticsWrites.up(db, dialect) },
    '0014-open-sessions-index': { up: (db: Kysely<unknown>) => openSessionsIndex.up(db, dialect) },
    '0015-visitor-context-changes': { up: (db: Kysely<unknown>) => visitorContextChanges.up(db, dialect) },
  };
}
