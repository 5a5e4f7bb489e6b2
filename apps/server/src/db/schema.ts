import type { Generated } from 'kysely';

/**
 * Tables as Kysely sees them (camelCase here, snake_case in SQL via CamelCasePlugin).
 * Times are epoch milliseconds; booleans are 0/1 integers; JSON is text. The same on SQLite and
 * PostgreSQL, so every query reads the same values on both.
 */
export interface Database {
  instanceSettings: { key: string; value: string };
  accounts: {
    id: string;
    slug: string;
    name: string;
    subscriptionStatus: string;
    settings: string;
    createdAt: number;
  };
  apiKeys: {
    id: string;
    accountId: string;
    keyHash: string;
    label: string;
    createdAt: number;
    lastUsedAt: number | null;
    /** The key's first characters, shown to tell keys apart (migration 0009); null on older keys. */
    prefix: string | null;
  };
  domains: {
    id: string;
    accountId: string;
    host: string;
    createdAt: number;
    verifyToken: string;
    state: 'pending' | 'verified' | 'failing';
    failure: string | null;
    checkedAt: number | null;
    failingSince: number | null;
    nextCheckAt: number;
  };
  funnels: {
    id: string;
    accountId: string;
    name: string;
    typeFunnel: string;
    language: string;
    settings: string;
    pixel: string;
    createdAt: number;
    updatedAt: number;
  };
  /** Bumped by triggers on every change to a funnel or its pages (migration 0006). */
  contentVersions: { funnelId: string; version: number };
  pages: {
    id: string;
    funnelId: string;
    position: number;
    layout: string;
    buttonAction: string;
    content: string;
    createdAt: number;
    updatedAt: number;
  };
  leads: {
    id: string;
    accountId: string;
    funnelId: string;
    tokenHash: string;
    name: string;
    email: string | null;
    phone: string | null;
    currentPageId: string | null;
    deadlineAt: number | null;
    deadlineExceptionOn: number | null;
    createdAt: number;
    lastIp: string | null;
    lastIpAt: number | null;
  };
  /** The words each lead is found by (migration 0009, decision 22). */
  /** Each funnel's number of leads, kept by triggers on leads (migration 0009). */
  funnelLeadCounts: { funnelId: string; leadCount: number | string };
  leadSearchTerms: { funnelId: string; term: string; leadId: string; createdAt: number };
  leadPageProgress: {
    leadId: string;
    pageId: string;
    completedAt: number | null;
    lastVideoPosition: number | null;
    lastVideoAt: number | null;
    updatedAt: number;
  };
  previewTokens: {
    id: string;
    tokenHash: string;
    accountId: string;
    funnelId: string;
    pageId: string;
    expiresAt: number;
    createdAt: number;
  };
  visits: {
    id: string;
    leadId: string;
    funnelId: string;
    pageId: string | null;
    visitorType: string;
    ip: string | null;
    userAgent: string | null;
    createdAt: number;
  };
  pageSessions: {
    id: string;
    leadId: string;
    funnelId: string;
    pageId: string;
    startAt: number;
    startReason: string;
    endAt: number | null;
    endReason: string | null;
    endInferred: number;
    details: string;
    endDetails: string | null;
    lastSeenAt: number;
  };
  videoRecords: {
    id: string;
    pageSessionId: string;
    leadId: string;
    startViewTime: number;
    endViewTime: number;
    startTimeVideo: number;
    endTimeVideo: number;
    details: string;
    receivedAt: number;
  };
  actions: {
    id: string;
    pageSessionId: string | null;
    leadId: string;
    action: string;
    occurredAt: number;
    details: string;
    receivedAt: number;
  };
  conversions: {
    id: string;
    accountId: string;
    funnelId: string;
    leadId: string;
    pageId: string | null;
    kind: string;
    details: string;
    createdAt: number;
  };
  pixelOutbox: {
    id: Generated<number>;
    eventId: string;
    accountId: string;
    funnelId: string;
    /** The lead whose page sent the event (migration 0007); null on rows stored before it. */
    leadId: string | null;
    /** The payload's event_name, for the limit of events per lead (migration 0007); null before it. */
    eventName: string | null;
    payload: string;
    attempts: number;
    nextAttemptAt: number;
    deliveredAt: number | null;
    droppedAt: number | null;
    lastError: string | null;
    createdAt: number;
  };
  /** Studio users (migration 0008): e-mail is stored lower-case; the password as scrypt's hash. */
  users: {
    id: string;
    email: string;
    name: string;
    passwordHash: string;
    /** JSON: scrypt's N, r, p, keylen and salt (base64). */
    passwordParams: string;
    language: string | null;
    createdAt: number;
    updatedAt: number;
  };
  memberships: { userId: string; accountId: string; role: string; createdAt: number };
  /** Studio sessions: only the token's SHA-256 is stored. */
  sessions: {
    id: string;
    tokenHash: string;
    userId: string;
    currentAccountId: string;
    createdAt: number;
    lastSeenAt: number;
    expiresAt: number;
  };
  invitations: {
    id: string;
    tokenHash: string;
    accountId: string;
    role: string;
    email: string | null;
    createdBy: string | null;
    createdAt: number;
    expiresAt: number;
    acceptedAt: number | null;
    revokedAt: number | null;
  };
  /** Analytics state (migration 0010, decision 25): a session's passes, as JSON. */
  analyticsSessions: { sessionId: string; pageId: string; leadId: string; state: string };
  /** Analytics state: one lead's plays on one page by day, as JSON. */
  analyticsLeadPages: { leadId: string; pageId: string; state: string };
  analyticsReach: { pageId: string; day: number; prevDay: number; second: number; delta: number };
  analyticsViews: { pageId: string; day: number; second: number; delta: number };
  analyticsPageDays: {
    pageId: string;
    day: number;
    sessions: number;
    plays: number;
    secondsPlayed: number;
    clicks: number;
    conversions: number;
  };
  analyticsPageLeads: { pageId: string; kind: string; day: number; prevDay: number; leads: number };
  analyticsFurthest: {
    pageId: string;
    firstPlayDay: number;
    furthestSecond: number;
    leads: number;
    converted: number;
  };
  analyticsSteps: {
    funnelId: string;
    pageId: string;
    entryDay: number;
    reached: number;
    completed: number;
    clicked: number;
    converted: number;
  };
  analyticsFunnelDays: { funnelId: string; day: number; entered: number; conversions: number };
  analyticsPageMeta: { pageId: string; maxDuration: number; maxPlayedSecond: number };
  /** Raised by every change of a page's aggregate rows (migration 0012): what a kept answer checks. */
  analyticsPageVersions: { pageId: string; version: number };
  /** SQLite only: changes to what visitor calls check, written by triggers (migration 0015, decision 42). */
  visitorContextChanges: { seq: Generated<number>; leadId: string | null };
}
