import { z } from 'zod';
import { AccountAnswer, AccountUpdateInput } from '../owner/account';
import {
  AnalyticsRange,
  FollowUpList,
  FollowUpQuery,
  FunnelAnalytics,
  LeadTimeline,
  PageAnalytics,
} from '../owner/analytics';
import { ApiKey, ApiKeyCreate, ApiKeyCreated } from '../owner/api-key';
import { Domain, DomainCreate, TlsAskQuery } from '../owner/domain';
import {
  Funnel,
  FunnelCreate,
  FunnelDuplicate,
  FunnelFromTemplate,
  FunnelTemplate,
  FunnelUpdate,
} from '../owner/funnel';
import {
  Lead,
  LeadCreate,
  LeadCreated,
  LeadImport,
  LeadImported,
  LeadList,
  LeadListQuery,
  LeadUpdate,
} from '../owner/lead';
import { Page, PageCreate, PageOrder, PageUpdate } from '../owner/page';
import {
  FirstRunSetup,
  Invitation,
  InvitationAccept,
  InvitationCreate,
  InvitationCreated,
  InvitationPreview,
  InvitationTokenParams,
  Member,
  MemberUpdate,
  PasswordChange,
  ProfileUpdate,
  SetupState,
  SignIn,
  StudioSession,
  SwitchAccount,
} from '../owner/people';
import { PreviewCreate, PreviewCreated } from '../owner/preview';
import { IdParams, NoQuery } from '../primitives';
import {
  ConversionAck,
  LeadIpRequest,
  PixelRequest,
  SuccessAnswer,
  TokenRequest,
} from '../visitor/conversion';
import { CspReportBody } from '../visitor/csp-report';
import { FomoRequest, FomoResponse } from '../visitor/fomo';
import { GeoAnswer } from '../visitor/geo';
import { LandingRequest, LandingResponse } from '../visitor/landing';
import { PreviewRequest, SiteRequest, SiteResponse } from '../visitor/site';
import {
  ActionTrack,
  PageSessionEnd,
  PageSessionStart,
  PageSessionStarted,
  SessionIdParams,
  TrackAck,
  VideoTrack,
} from '../visitor/tracking';
import { ROUTE_PATHS, type RoutePath, type RoutePaths } from './paths';

/** The limits of the server at hand, for the descriptions that name them. */
export interface DocumentedLimits {
  funnelsPerAccount: number;
  pagesPerFunnel: number;
  richTextChars: number;
  funnelContentChars: number;
}

/** What a route takes and answers (zod), and what the OpenAPI document says of it. */
export interface RouteSchemas {
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** One schema per status it answers with. A route without one answers 204 (or documents none). */
  readonly response?: Readonly<Partial<Record<number, z.ZodType>>>;
  readonly tags: readonly string[];
  readonly summary?: string;
  /** Text, or text naming this server's limits. */
  readonly description?: string | ((limits: DocumentedLimits) => string);
}

/** One route of the table: where it answers (./paths.ts) and its schemas. */
export type RouteContract = RoutePath & RouteSchemas;

/** The entry of `at` with its schemas, keeping every literal type (method, path, each schema). */
function route<const At extends RoutePath, const Schemas extends RouteSchemas>(
  at: At,
  schemas: Schemas,
): At & Schemas {
  return { ...at, ...schemas };
}

export const Health = z.object({ status: z.enum(['ok', 'unavailable']), database: z.string() });
export type Health = z.infer<typeof Health>;

const P = ROUTE_PATHS;
const tags = {
  auth: ['studio sign-in'],
  account: ['account'],
  members: ['members'],
  apiKeys: ['API keys'],
  funnels: ['funnels'],
  pages: ['pages'],
  leads: ['leads'],
  domains: ['domains'],
  previews: ['previews'],
  analytics: ['analytics'],
  operator: ['operator'],
  visitor: ['visitor'],
  tracking: ['visitor tracking'],
  conversions: ['visitor conversions'],
} as const;

/** The limits a page save may hit, for the OpenAPI document: a save beyond one writes nothing. */
const pageLimits = ({ pagesPerFunnel, richTextChars, funnelContentChars }: DocumentedLimits) =>
  `A funnel has at most ${pagesPerFunnel} pages (MAX_PAGES_PER_FUNNEL; a page more is a 409). ` +
  `A rich-text field (topline, headline, subheadline, buttonCopy) holds at most ${richTextChars} ` +
  `characters once sanitised (MAX_RICH_TEXT_CHARS), and all of a funnel's pages together hold at most ` +
  `${funnelContentChars} characters of text, counting rich text, links and video fields ` +
  `(MAX_FUNNEL_CONTENT_CHARS); more is a 400 naming the limit.`;

/** 403: the lead's account is inactive; 404: no such lead; 409: the lead's page did not offer it. */
const CONVERSION_ANSWERS = { 200: ConversionAck, 403: ConversionAck, 404: ConversionAck, 409: ConversionAck };
/** 403: the lead's account is inactive; 404: no such lead or session. */
const TRACK_ANSWERS = { 200: TrackAck, 403: TrackAck, 404: TrackAck };

/**
 * Every route of the API, declared once: the server registers its routes from this table (handlers
 * by key), the OpenAPI document comes from its schemas, and `callRoute` (./client.ts) types its calls
 * by it. Group by group in the order the server registers them (the OpenAPI document's order).
 */
export const ROUTES = {
  operator: {
    health: route(P.operator.health, {
      tags: tags.operator,
      response: { 200: Health, 503: Health },
    }),
    tlsAsk: route(P.operator.tlsAsk, {
      tags: tags.operator,
      description:
        "Caddy's on-demand TLS asks before each new certificate: 200 for a base domain or a verified " +
        'custom domain of an active account, 404 otherwise. Answered to the loopback and the addresses ' +
        'in TLS_ASK_ALLOW only (403 to anyone else).',
      query: TlsAskQuery,
    }),
  },
  auth: {
    setupState: route(P.auth.setupState, {
      tags: tags.auth,
      description: 'Whether the first run is still to be done: no user exists yet.',
      response: { 200: SetupState },
    }),
    setup: route(P.auth.setup, {
      tags: tags.auth,
      description:
        'Creates the first user as the owner of a new account, and signs them in. Only while no user ' +
        'exists: afterwards a 409.',
      body: FirstRunSetup,
      response: { 201: StudioSession },
    }),
    signIn: route(P.auth.signIn, {
      tags: tags.auth,
      description:
        'Signs in with e-mail and password and sets the session cookie. An unknown e-mail and a wrong ' +
        'password get the same 401; attempts are limited per address and per e-mail (429).',
      body: SignIn,
      response: { 200: StudioSession },
    }),
    signOut: route(P.auth.signOut, {
      tags: tags.auth,
      description: 'Ends this session: its cookie stops working.',
    }),
    session: route(P.auth.session, {
      tags: tags.auth,
      description: 'Who is signed in, their accounts and the current one; 401 without a live session.',
      response: { 200: StudioSession },
    }),
    switchAccount: route(P.auth.switchAccount, {
      tags: tags.auth,
      description: "Makes another of the user's accounts the current one (404 if not a member).",
      body: SwitchAccount,
      response: { 200: StudioSession },
    }),
    updateProfile: route(P.auth.updateProfile, {
      tags: tags.auth,
      body: ProfileUpdate,
      response: { 200: StudioSession },
    }),
    changePassword: route(P.auth.changePassword, {
      tags: tags.auth,
      description: "Changes the user's password and signs out every other session of theirs.",
      body: PasswordChange,
    }),
    invitation: route(P.auth.invitation, {
      tags: tags.auth,
      description: 'What an invitation link offers; 404 once used, revoked or expired.',
      params: InvitationTokenParams,
      response: { 200: InvitationPreview },
    }),
    acceptInvitation: route(P.auth.acceptInvitation, {
      tags: tags.auth,
      description:
        'Joins the account: a signed-in user sends no body; anyone else sends name, e-mail and password ' +
        'to create their user. Signs in and makes the account current.',
      params: InvitationTokenParams,
      body: InvitationAccept,
      response: { 200: StudioSession },
    }),
  },
  account: {
    get: route(P.account.get, { tags: tags.account, response: { 200: AccountAnswer } }),
    update: route(P.account.update, {
      tags: tags.account,
      description:
        'Changes the fields given. `settings.whatsappLandingButtonBgColor` was called `lpiButtonBgColor`; ' +
        'the old name is still accepted (the new one wins when both are sent), and answers carry the new name.',
      body: AccountUpdateInput,
      response: { 200: AccountAnswer },
    }),
  },
  members: {
    list: route(P.members.list, { tags: tags.members, response: { 200: z.array(Member) } }),
    update: route(P.members.update, {
      tags: tags.members,
      description:
        "Changes a member's role (the id is the user's). An account keeps at least one owner (409).",
      params: IdParams,
      body: MemberUpdate,
      response: { 200: Member },
    }),
    remove: route(P.members.remove, {
      tags: tags.members,
      description:
        "Removes a member (the id is the user's) and ends their sessions in this account. An account " +
        'keeps at least one owner (409).',
      params: IdParams,
    }),
  },
  invitations: {
    list: route(P.invitations.list, {
      tags: tags.members,
      description: 'Invitations not yet used, revoked or expired.',
      response: { 200: z.array(Invitation) },
    }),
    create: route(P.invitations.create, {
      tags: tags.members,
      description: 'A one-time link for someone to join with the role given; the link is shown only here.',
      body: InvitationCreate,
      response: { 201: InvitationCreated },
    }),
    remove: route(P.invitations.remove, { tags: tags.members, params: IdParams }),
  },
  apiKeys: {
    list: route(P.apiKeys.list, { tags: tags.apiKeys, response: { 200: z.array(ApiKey) } }),
    create: route(P.apiKeys.create, {
      tags: tags.apiKeys,
      description: 'A new API key; the key is shown only here and stored hashed.',
      body: ApiKeyCreate,
      response: { 201: ApiKeyCreated },
    }),
    remove: route(P.apiKeys.remove, {
      tags: tags.apiKeys,
      description: 'Revokes a key: it stops working at once.',
      params: IdParams,
    }),
  },
  funnels: {
    list: route(P.funnels.list, { tags: tags.funnels, response: { 200: z.array(Funnel) } }),
    templates: route(P.funnels.templates, {
      tags: tags.funnels,
      description: 'The ready-made funnels a new one can start from.',
      response: { 200: z.array(FunnelTemplate) },
    }),
    createFromTemplate: route(P.funnels.createFromTemplate, {
      tags: tags.funnels,
      description: "Creates a funnel with a template's settings and pages.",
      body: FunnelFromTemplate,
      response: { 201: Funnel },
    }),
    duplicate: route(P.funnels.duplicate, {
      tags: tags.funnels,
      description: "Copies a funnel's settings and pages (not its leads) into a new funnel.",
      params: IdParams,
      body: FunnelDuplicate,
      response: { 201: Funnel },
    }),
    create: route(P.funnels.create, {
      tags: tags.funnels,
      description: ({ funnelsPerAccount }: DocumentedLimits) =>
        `Creates a funnel. An account has at most ${funnelsPerAccount} funnels ` +
        '(MAX_FUNNELS_PER_ACCOUNT); one more is a 409 naming the limit.',
      body: FunnelCreate,
      response: { 201: Funnel },
    }),
    get: route(P.funnels.get, { tags: tags.funnels, params: IdParams, response: { 200: Funnel } }),
    update: route(P.funnels.update, {
      tags: tags.funnels,
      params: IdParams,
      body: FunnelUpdate,
      response: { 200: Funnel },
    }),
    remove: route(P.funnels.remove, { tags: tags.funnels, params: IdParams }),
  },
  pages: {
    list: route(P.pages.list, { tags: tags.pages, params: IdParams, response: { 200: z.array(Page) } }),
    create: route(P.pages.create, {
      tags: tags.pages,
      description: (limits: DocumentedLimits) => `Appends a page to the funnel. ${pageLimits(limits)}`,
      params: IdParams,
      body: PageCreate,
      response: { 201: Page },
    }),
    reorder: route(P.pages.reorder, {
      tags: tags.pages,
      description: "Puts the funnel's pages in the order given (every page of the funnel, each once).",
      params: IdParams,
      body: PageOrder,
      response: { 200: z.array(Page) },
    }),
    duplicate: route(P.pages.duplicate, {
      tags: tags.pages,
      description: (limits: DocumentedLimits) =>
        `Inserts a copy of the page right after it. ${pageLimits(limits)}`,
      params: IdParams,
      response: { 201: Page },
    }),
    get: route(P.pages.get, { tags: tags.pages, params: IdParams, response: { 200: Page } }),
    update: route(P.pages.update, {
      tags: tags.pages,
      description: (limits: DocumentedLimits) => `Changes the fields given. ${pageLimits(limits)}`,
      params: IdParams,
      body: PageUpdate,
      response: { 200: Page },
    }),
    remove: route(P.pages.remove, { tags: tags.pages, params: IdParams }),
  },
  leads: {
    list: route(P.leads.list, {
      tags: tags.leads,
      params: IdParams,
      query: LeadListQuery,
      response: { 200: LeadList },
    }),
    create: route(P.leads.create, {
      tags: tags.leads,
      params: IdParams,
      body: LeadCreate,
      response: { 201: LeadCreated },
    }),
    import: route(P.leads.import, {
      tags: tags.leads,
      params: IdParams,
      body: LeadImport,
      response: { 201: LeadImported },
    }),
    get: route(P.leads.get, { tags: tags.leads, params: IdParams, response: { 200: Lead } }),
    update: route(P.leads.update, {
      tags: tags.leads,
      params: IdParams,
      body: LeadUpdate,
      response: { 200: Lead },
    }),
    newLink: route(P.leads.newLink, {
      tags: tags.leads,
      description: 'Gives the lead a new link, shown only here; the old link stops working at once.',
      params: IdParams,
      response: { 201: LeadCreated },
    }),
    remove: route(P.leads.remove, {
      tags: tags.leads,
      description:
        'Erases the lead with everything recorded about them (sessions, video, actions, conversions).',
      params: IdParams,
    }),
  },
  domains: {
    list: route(P.domains.list, { tags: tags.domains, response: { 200: z.array(Domain) } }),
    create: route(P.domains.create, { tags: tags.domains, body: DomainCreate, response: { 201: Domain } }),
    remove: route(P.domains.remove, { tags: tags.domains, params: IdParams }),
    verify: route(P.domains.verify, {
      tags: tags.domains,
      description: "Looks up the domain's DNS records now and answers the domain as the check left it.",
      params: IdParams,
      response: { 200: Domain },
    }),
  },
  previews: {
    create: route(P.previews.create, {
      tags: tags.previews,
      params: IdParams,
      body: PreviewCreate.nullish(),
      response: { 201: PreviewCreated },
    }),
  },
  analytics: {
    page: route(P.analytics.page, {
      tags: tags.analytics,
      description:
        "A page's numbers over a range of days of the account's time zone (the last 30 days when " +
        'from and to are left out; at most 366 days): sessions, plays, unique viewers, retention by ' +
        'second (reach: distinct leads; views: replays included), clicks, conversions.',
      params: IdParams,
      query: AnalyticsRange,
      response: { 200: PageAnalytics },
    }),
    funnel: route(P.analytics.funnel, {
      tags: tags.analytics,
      description:
        "The funnel's steps for the leads that entered it in the range: for each page in order, how " +
        'many reached it, completed it, clicked its button and converted.',
      params: IdParams,
      query: AnalyticsRange,
      response: { 200: FunnelAnalytics },
    }),
    followUps: route(P.analytics.followUps, {
      tags: tags.analytics,
      description:
        'The leads worth a follow-up: by default those who watched past the button time of a page ' +
        'and did not convert on it, furthest first.',
      params: IdParams,
      query: FollowUpQuery,
      response: { 200: FollowUpList },
    }),
    leadTimeline: route(P.analytics.leadTimeline, {
      tags: tags.analytics,
      description:
        "The lead's page sessions, newest first, each with the stretches of video it played, its " +
        "button actions and its conversions (with the Meta pixel's delivery of each).",
      params: IdParams,
      response: { 200: LeadTimeline },
    }),
  },
  site: {
    resolve: route(P.site.resolve, {
      tags: tags.visitor,
      body: SiteRequest,
      response: { 200: SiteResponse },
    }),
    preview: route(P.site.preview, {
      tags: tags.visitor,
      body: PreviewRequest,
      response: { 200: SiteResponse },
    }),
    landing: route(P.site.landing, {
      tags: tags.visitor,
      body: LandingRequest,
      response: { 200: LandingResponse },
    }),
  },
  tracking: {
    startSession: route(P.tracking.startSession, {
      tags: tags.tracking,
      body: PageSessionStart,
      response: { 200: PageSessionStarted, 403: PageSessionStarted, 404: PageSessionStarted },
    }),
    endSession: route(P.tracking.endSession, {
      tags: tags.tracking,
      params: SessionIdParams,
      body: PageSessionEnd,
      response: TRACK_ANSWERS,
    }),
    action: route(P.tracking.action, { tags: tags.tracking, body: ActionTrack, response: TRACK_ANSWERS }),
    video: route(P.tracking.video, { tags: tags.tracking, body: VideoTrack, response: TRACK_ANSWERS }),
  },
  conversions: {
    videoViewed: route(P.conversions.videoViewed, {
      tags: tags.conversions,
      body: TokenRequest,
      response: CONVERSION_ANSWERS,
    }),
    offerEvent: route(P.conversions.offerEvent, {
      tags: tags.conversions,
      body: TokenRequest,
      response: CONVERSION_ANSWERS,
    }),
    prelaunch: route(P.conversions.prelaunch, {
      tags: tags.conversions,
      body: TokenRequest,
      response: CONVERSION_ANSWERS,
    }),
    leadIp: route(P.conversions.leadIp, {
      tags: tags.conversions,
      body: LeadIpRequest,
      response: { 200: SuccessAnswer },
    }),
  },
  fomo: {
    messages: route(P.fomo.messages, {
      tags: tags.visitor,
      body: FomoRequest,
      response: { 200: FomoResponse },
    }),
  },
  geo: {
    // No ?ip=: the caller's own address only.
    lookup: route(P.geo.lookup, { tags: tags.visitor, query: NoQuery, response: { 200: GeoAnswer } }),
  },
  pixel: {
    record: route(P.pixel.record, {
      tags: tags.visitor,
      body: PixelRequest,
      response: { 200: SuccessAnswer, 403: ConversionAck, 404: ConversionAck },
    }),
  },
  cspReport: {
    report: route(P.cspReport.report, {
      tags: tags.visitor,
      body: CspReportBody,
      response: { 204: z.null() },
    }),
  },
} as const satisfies { [G in keyof RoutePaths]: { [N in keyof RoutePaths[G]]: RouteContract } };

export type Routes = typeof ROUTES;
