import { createAnalyticsRepo } from './modules/analytics/analytics.repo';
import { createAnalyticsService } from './modules/analytics/analytics.service';
import { createAnalyticsReportsService } from './modules/analytics/analytics-reports.service';
import { createAnswerPageQuery } from './modules/analytics/answer-page.query';
import { createDatabaseRollups } from './modules/analytics/database-rollups';
import { createPageAnswers } from './modules/analytics/page-answers';
import { createFollowUpsQuery } from './modules/analytics/follow-ups.query';
import { createLeadTimelineQuery } from './modules/analytics/lead-timeline.query';
import { createRollupIngest, createRollupsOff } from './modules/analytics/rollup-ingest';
import { createRollupLock, crossProcessLock } from './modules/analytics/rollup-lock';
import { OWNER_LIMIT_DEFAULTS, UNKNOWN } from '@embudo/contracts';
import type { DatabaseHandle } from './db';
import { createGeoService, type GeoLogger } from './modules/geo/geo.service';
import { DEFAULT_CONTENT_CACHE_BYTES, type Config, type StudioSettings } from './config';
import { createMemberRepo } from './modules/members/member.repo';
import { createMemberService } from './modules/members/member.service';
import { createSessionRepo } from './modules/studio-sessions/session.repo';
import { createSessionService } from './modules/studio-sessions/session.service';
import { createStudioAuthService } from './modules/studio-sessions/studio-auth.service';
import type { PasswordHasher } from './modules/users/password';
import { createUserRepo } from './modules/users/user.repo';
import { createUserService } from './modules/users/user.service';
import { createAccountRepo } from './modules/accounts/account.repo';
import { createAccountService } from './modules/accounts/account.service';
import { createDomainRepo } from './modules/domains/domain.repo';
import { createDomainService } from './modules/domains/domain.service';
import { createDnsLookups, type DnsLookups } from './modules/domains/dns-check';
import { createRedisDomainChanges } from './modules/domains/redis-domain-changes';
import { createLocalDomainChanges, type DomainChanges } from './modules/domains/served-hosts';
import { createFunnelRepo } from './modules/funnels/funnel.repo';
import { createFunnelService } from './modules/funnels/funnel.service';
import { createFunnelTemplateService } from './modules/funnels/templates/funnel-template.service';
import { instanceSecret } from './modules/instance/instance.repo';
import { createLeadRepo } from './modules/leads/lead.repo';
import { createLeadService } from './modules/leads/lead.service';
import { createPageRepo } from './modules/pages/page.repo';
import { createPageService } from './modules/pages/page.service';
import { createPreviewRepo } from './modules/previews/preview.repo';
import { createPreviewService } from './modules/previews/preview.service';
import { createLeadPageRepo } from './modules/visitor-pages/lead-page.repo';
import { createVisitorPagesService } from './modules/visitor-pages/visitor-pages.service';
import { createLeadProgressRepo } from './modules/lead-progress/lead-progress.repo';
import { createLeadProgressService } from './modules/lead-progress/lead-progress.service';
import { createConversionRepo } from './modules/conversions/conversion.repo';
import { createConversionService } from './modules/conversions/conversion.service';
import { createFomoService } from './modules/fomo/fomo.service';
import { createPixelRepo } from './modules/pixel/pixel.repo';
import { createPixelService } from './modules/pixel/pixel.service';
import { createPixelWorker, type PixelWorkerOptions } from './modules/pixel/pixel.worker';
import { createEventRepo } from './modules/tracking/event.repo';
import { createEventWriter } from './modules/tracking/event-writer';
import { createTrackingRepo } from './modules/tracking/tracking.repo';
import { createTrackingService } from './modules/tracking/tracking.service';

export type ServicesConfig = Pick<Config, 'publicUrl' | 'baseDomains'> &
  Partial<
    Pick<
      Config,
      | 'geoDatabase'
      | 'legalContactEmail'
      | 'ownerLimits'
      | 'contentCacheBytes'
      | 'studio'
      | 'analyticsRollups'
      | 'domains'
      | 'redisUrl'
    >
  > & {
    /** Tests answer DNS lookups themselves. */
    dns?: DnsLookups;
    /** Tests count or replace password hashing (decision 21). */
    passwords?: PasswordHasher;
    /** Tests move the clock of sessions. */
    now?: () => number;
  };

const STUDIO_DEFAULTS: StudioSettings = {
  sessionMaxAgeMs: 30 * 24 * 60 * 60 * 1000,
  sessionIdleMs: 7 * 24 * 60 * 60 * 1000,
  signInAttempts: 10,
  signInWindowMs: 15 * 60 * 1000,
};

/**
 * Page answers kept in memory (`page-answers.ts`): a 20-minute video's answer is about 20 kB of JSON,
 * so at most about 10 MB, enough for every dashboard a launch team keeps open.
 */
const PAGE_ANSWERS_KEPT = 500;

/** Links as visitors and owners get them. */
export function linksFor(publicUrl: string) {
  return {
    leadUrl: (slug: string, token: string) => `${publicUrl}/${slug}/${token}`,
    previewUrl: (slug: string, token: string) => `${publicUrl}/${slug}/preview?previewToken=${token}`,
    invitationUrl: (token: string) => `${publicUrl}/studio/invite/${token}`,
    studioUrl: `${publicUrl}/studio`,
  };
}

/** Every repository, each on the database: only the composition root (and tests) build them. */
export function createRepos(
  database: Pick<DatabaseHandle, 'db' | 'lookupDb' | 'dialect'> &
    Partial<Pick<DatabaseHandle, 'contextChanges'>>,
) {
  const { db, lookupDb, dialect, contextChanges } = database;
  return {
    accounts: createAccountRepo(db),
    domains: createDomainRepo(db, dialect),
    funnels: createFunnelRepo(db),
    pages: createPageRepo(db, dialect, contextChanges),
    leads: createLeadRepo(db),
    leadPages: createLeadPageRepo(db),
    previews: createPreviewRepo(db),
    // The visitor path's lookups by key, on their own connections (decision 34).
    progress: createLeadProgressRepo(lookupDb, dialect, contextChanges),
    events: createEventRepo(db, dialect),
    tracking: createTrackingRepo(lookupDb, dialect, contextChanges),
    conversions: createConversionRepo(db),
    pixels: createPixelRepo(db, dialect),
    users: createUserRepo(db),
    members: createMemberRepo(db),
    sessions: createSessionRepo(db),
    analytics: createAnalyticsRepo(dialect),
  };
}
export type Repos = ReturnType<typeof createRepos>;

/**
 * The composition root: every repository and service, wired once, for the HTTP app and the CLI alike.
 * Each service gets exactly what it uses; the repositories stay in here.
 */
export async function createServices(database: DatabaseHandle, config: ServicesConfig, logger?: GeoLogger) {
  const { db } = database;
  const secret = await instanceSecret(db);
  const links = linksFor(config.publicUrl);
  const repos = createRepos(database);
  const limits = config.ownerLimits ?? OWNER_LIMIT_DEFAULTS;
  // Bound below, once analytics exists: a new time zone rebuilds the account's rollups.
  let rebuildAnalytics = (_accountId: string): Promise<void> => Promise.resolve();
  const accounts = createAccountService({
    accounts: repos.accounts,
    onTimeZoneChange: (accountId) => rebuildAnalytics(accountId),
  });
  const funnels = createFunnelService({ funnels: repos.funnels, limits });
  const pages = createPageService({
    pages: repos.pages,
    funnels,
    limits,
    isServedHost: async (host) =>
      config.baseDomains.includes(host) || (await repos.domains.findByHost(host)) !== undefined,
  });
  const funnelTemplates = createFunnelTemplateService({ funnels, pages });
  const progress = createLeadProgressService({ progress: repos.progress, pages: repos.pages });
  // Before the leads: erasing a lead first waits for the events already acknowledged to be written.
  // Analytics rollups (decision 25): kept by the writer's batches, new leads and conversions alike.
  // ANALYTICS_ROLLUPS=off stores raw rows only and marks a rebuild for a start with them on.
  const rollupsOn = config.analyticsRollups ?? true;
  // The rollups keep recent state rows in memory for the writer's batches (on PostgreSQL while no other
  // process changed them: decision 31).
  const rollups = createDatabaseRollups({
    db,
    analytics: repos.analytics,
    cacheStates: rollupsOn,
    // Several processes on PostgreSQL take turns through the database (rollup-lock.ts).
    acrossProcesses: crossProcessLock(database.dialect),
  });
  const rollupLock = createRollupLock();
  const rollupIngest = rollupsOn
    ? createRollupIngest({ db, analytics: repos.analytics, rollups, lock: rollupLock })
    : createRollupsOff({ db, analytics: repos.analytics, lock: rollupLock });
  const writer = createEventWriter({ database, events: repos.events, progress, rollups: rollupIngest });
  const leads = createLeadService({
    leads: repos.leads,
    progress,
    funnels,
    links,
    events: writer,
    rollups: rollupIngest,
  });
  const domainSettings = config.domains ?? {
    target: new URL(config.publicUrl).hostname,
    dnsServers: [],
    checkIntervalMs: 60 * 60_000,
    tlsAskAllow: [],
  };
  // Several processes hear each other's domain changes through Redis when REDIS_URL is set.
  const domainChanges: DomainChanges & { close?: () => Promise<void> } = config.redisUrl
    ? createRedisDomainChanges(config.redisUrl, (error) =>
        logger?.warn({ err: error }, 'domain changes (Redis)'),
      )
    : createLocalDomainChanges();
  const domains = createDomainService({
    domains: repos.domains,
    baseDomains: config.baseDomains,
    target: domainSettings.target,
    dns: config.dns ?? createDnsLookups(domainSettings.dnsServers),
    checkIntervalMs: domainSettings.checkIntervalMs,
    changes: domainChanges,
  });
  const previews = createPreviewService({
    previews: repos.previews,
    pages: repos.pages,
    pageService: pages,
    secret,
    previewUrl: links.previewUrl,
  });
  const visitorPages = createVisitorPagesService({
    accounts: repos.accounts,
    domains,
    funnels: repos.funnels,
    pages: repos.pages,
    leadPages: repos.leadPages,
    previews: repos.previews,
    progress,
    secret,
    baseDomains: config.baseDomains,
    providerEmail: config.legalContactEmail ?? null,
    cacheBytes: config.contentCacheBytes ?? DEFAULT_CONTENT_CACHE_BYTES,
  });
  const tracking = createTrackingService({ writer, progress, tracking: repos.tracking });
  const geo = createGeoService({ database: config.geoDatabase ?? 'city', ...(logger ? { logger } : {}) });
  /** Where a converting visitor is, for social proof; unknown parts stay null. */
  const locate = async (ip: string) => {
    const where = await geo.lookup(ip);
    return {
      city: where.city === UNKNOWN ? null : where.city,
      countryCode: where.country_code === UNKNOWN ? null : where.country_code,
    };
  };
  const conversions = createConversionService({
    conversions: repos.conversions,
    progress,
    locate,
    rollups: rollupIngest,
  });
  const fomo = createFomoService({ funnels: repos.funnels, conversions: repos.conversions });
  const pixel = createPixelService({
    pixels: repos.pixels,
    funnels: repos.funnels,
    leads: progress,
    conversions,
  });
  const studio = config.studio ?? STUDIO_DEFAULTS;
  const clock = config.now ? { now: config.now } : {};
  const users = createUserService({
    users: repos.users,
    ...(config.passwords ? { passwords: config.passwords } : {}),
    ...clock,
  });
  const sessions = createSessionService({
    sessions: repos.sessions,
    maxAgeMs: studio.sessionMaxAgeMs,
    idleMs: studio.sessionIdleMs,
    ...clock,
  });
  const members = createMemberService({
    members: repos.members,
    endSessionsInAccount: sessions.endInAccount,
    invitationUrl: links.invitationUrl,
    ...clock,
  });
  const studioAuth = createStudioAuthService({
    users,
    sessions,
    members,
    accounts,
    firstRun: users.firstRun,
  });
  const analytics = createAnalyticsService({
    db,
    // Off, a start leaves a pending rebuild for a start with the rollups on.
    analytics: rollupsOn
      ? repos.analytics
      : { ...repos.analytics, rebuildPending: () => Promise.resolve(false) },
    rollups,
    accounts,
    lock: rollupLock,
  });
  rebuildAnalytics = async (accountId) => {
    await analytics.rebuild(accountId);
  };
  const analyticsReports = createAnalyticsReportsService({
    rollups,
    pages,
    leads,
    followUps: createFollowUpsQuery(db),
    leadTimeline: createLeadTimelineQuery(db),
    answerPage: createAnswerPageQuery(db),
    pageAnswers: createPageAnswers(PAGE_ANSWERS_KEPT),
  });
  /** What outlives a request and must be let go when the server stops (Redis connections). */
  const closeShared = async (): Promise<void> => {
    await domainChanges.close?.();
  };
  return {
    closeShared,
    secret,
    links,
    accounts,
    funnels,
    funnelTemplates,
    pages,
    leads,
    progress,
    domains,
    previews,
    visitorPages,
    writer,
    tracking,
    conversions,
    fomo,
    geo,
    pixel,
    users,
    sessions,
    members,
    studioAuth,
    analytics,
    analyticsReports,
    /** The pixel outbox's sender (architecture §5.10), for a serving process's background jobs. */
    pixelWorker: (options: Omit<PixelWorkerOptions, 'pixels' | 'funnels'>) =>
      createPixelWorker({ ...options, pixels: repos.pixels, funnels: repos.funnels }),
  };
}
export type Services = Awaited<ReturnType<typeof createServices>>;
