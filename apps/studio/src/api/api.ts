import { ApiError as ApiErrorBody, ErrorCode, Role } from '@embudo/contracts';
import {
  callRoute,
  type ContractOf,
  type RouteAnswer,
  type RouteInput,
  type RoutePath,
} from '@embudo/contracts/client';

/** What went wrong with a call, as a screen tells the owner. */
export type FailureKind =
  | 'network'
  | 'server'
  | 'unauthorized'
  | 'role'
  | 'forbidden'
  | 'validation'
  | 'notFound'
  | 'conflict'
  | 'rateLimited'
  | 'other';

export interface FieldIssue {
  /** The field's name in the form: the server's `body.settings.contactEmail` is `settings.contactEmail`. */
  field: string;
  message: string;
}

/**
 * A failed call of the API: its status (0 when the server was not reached), the server's code and
 * sentence, the fields at fault, and on a ROLE_REQUIRED 403 the role that would do.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: readonly FieldIssue[];
  readonly requiredRole: Role | null;

  constructor(options: {
    status: number;
    code: string;
    message: string;
    issues?: readonly FieldIssue[];
    requiredRole?: Role | null;
  }) {
    super(options.message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.issues = options.issues ?? [];
    this.requiredRole = options.requiredRole ?? null;
  }

  get kind(): FailureKind {
    if (this.status === 0) return 'network';
    if (this.status >= 500) return 'server';
    if (this.status === 401) return 'unauthorized';
    if (this.status === 403) return this.code === ErrorCode.roleRequired ? 'role' : 'forbidden';
    if (this.status === 404) return 'notFound';
    if (this.status === 409) return 'conflict';
    if (this.status === 429) return 'rateLimited';
    if (this.status === 400 || this.status === 422) return 'validation';
    return 'other';
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** The form field a server issue names: the path without its part of the request (`body.`, `params.`). */
export function fieldOf(path: string): string {
  return path.replace(/^(body|query|params)(\.|$)/, '');
}

/** Reads a non-OK answer into an ApiError; a body that is not the API's error shape keeps its status. */
export async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let json: unknown = null;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = null;
  }
  const parsed = ApiErrorBody.safeParse(json);
  if (!parsed.success)
    return new ApiError({ status: response.status, code: 'UNKNOWN', message: text || response.statusText });
  const body = parsed.data;
  const role = Role.safeParse(body.requiredRole);
  return new ApiError({
    status: response.status,
    code: body.code,
    message: body.message,
    issues: (body.issues ?? []).map((issue) => ({ field: fieldOf(issue.path), message: issue.message })),
    requiredRole: role.success ? role.data : null,
  });
}

/** The fetch the Studio calls with: same origin (the session cookie goes along), failures typed. */
export async function studioFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  // A call without a body says no content type: the server refuses an empty body said to be JSON.
  const headers = new Headers(init?.headers);
  if (init?.body === undefined || init.body === null) headers.delete('content-type');
  let response: Response;
  try {
    response = await fetch(input, { ...init, headers, credentials: 'same-origin' });
  } catch (error) {
    if (init?.signal?.aborted) throw error;
    throw new ApiError({ status: 0, code: 'NETWORK', message: 'The server could not be reached' });
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

/**
 * Calls a route of the table (`api(ROUTE_PATHS.members.list, {})`), typed from the contracts; any
 * failure, a lost connection and a timeout included, is an ApiError.
 */
export async function api<const R extends RoutePath>(
  route: R,
  input: RouteInput<ContractOf<R>>,
): Promise<RouteAnswer<ContractOf<R>>> {
  try {
    return await callRoute(route, input, { fetch: studioFetch });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // 'Request timeout' from the client, or a body that never finished.
    throw new ApiError({
      status: 0,
      code: 'NETWORK',
      message: error instanceof Error ? error.message : 'Request failed',
    });
  }
}
