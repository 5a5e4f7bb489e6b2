/**
 * The typed client of the route table, for the visitor app and the owner dashboard. It imports no
 * zod at run time: a route is called by its method and path (an entry of ROUTE_PATHS, or of ROUTES),
 * and the schemas of the table only type the call: what it takes is `z.input` of the route's params,
 * query and body, what it answers is `z.output` of its 2xx response schemas.
 */
import type { z } from 'zod';
import { TIMING } from './constants';
import type { HttpMethod, RoutePath } from './routes/paths';
import type { RouteContract, Routes } from './routes/table';

export { OWNER_ROUTE_PATHS, ROUTE_PATHS, VISITOR_ROUTE_PATHS, type RoutePath } from './routes/paths';

type AnyRoute = { [G in keyof Routes]: Routes[G][keyof Routes[G]] }[keyof Routes];

/** The table's route at this method and path (an entry of ROUTE_PATHS names it as well as ROUTES). */
export type ContractOf<R extends RoutePath> = Extract<AnyRoute, { method: R['method']; path: R['path'] }>;

type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
/** Whether `{}` will do: no key is required (NoQuery's record of nothing included). */
type MayBeEmpty<T> = string extends keyof T ? true : [RequiredKeys<T>] extends [never] ? true : false;

/** A part the route takes: required unless it may be empty ({}), absent when the route has none. */
type Part<R, Key extends string, Name extends string> = R extends { [K in Key]: infer S extends z.ZodType }
  ? MayBeEmpty<z.input<S>> extends true
    ? { [N in Name]?: z.input<S> }
    : { [N in Name]: z.input<S> }
  : { [N in Name]?: never };

/** What a call of the route takes: its path parameters, query and body, as the schemas take them. */
export type RouteInput<R extends RouteContract> = R extends RouteContract
  ? Part<R, 'params', 'params'> & Part<R, 'query', 'query'> & Part<R, 'body', 'body'>
  : never;

type Success = 200 | 201 | 202 | 203 | 204;

/** What a successful call answers: the route's 2xx schemas, as they write it. */
export type RouteAnswer<R extends RouteContract> = R extends { response: infer Answers }
  ? {
      [S in keyof Answers & Success]: Answers[S] extends z.ZodType ? z.output<Answers[S]> : never;
    }[keyof Answers & Success]
  : unknown;

export interface CallOptions {
  /** Default TIMING.requestTimeout; past it the call fails with 'Request timeout'. */
  timeoutMs?: number;
  /** Still sent when the page is closing. */
  keepalive?: boolean;
  /** Another origin than the page's (tests, the owner dashboard's own settings). */
  baseUrl?: string;
  /** Headers beside the JSON ones (the owner's `authorization`). */
  headers?: Record<string, string>;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

/**
 * The generic call of visitor-behaviour §7 and §9: JSON headers; the answer parsed as JSON when its content type
 * says so, otherwise as text; past the timeout (the body's read included) 'Request timeout'; a
 * non-OK answer throws 'HTTP {status}: {body}'.
 */
export async function request<T>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort();
  }, options.timeoutMs ?? TIMING.requestTimeout);
  try {
    const response = await (options.fetch ?? fetch)(`${options.baseUrl ?? ''}${path}`, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: controller.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
    });
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const text = await response.text();
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${text}`);
    return (isJson && text !== '' ? JSON.parse(text) : text) as T;
  } catch (error) {
    if (controller.signal.aborted) throw new Error('Request timeout');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The route's path with its parameters filled in (each encoded) and its query, if any. */
export function addressOf(route: RoutePath, input: { params?: object; query?: object }): string {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) =>
    encodeURIComponent(String(params[name])),
  );
  const query = new URLSearchParams();
  const entries = Object.entries(input.query ?? {}) as [
    string,
    string | number | boolean | null | undefined,
  ][];
  for (const [key, value] of entries) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const search = query.toString();
  return search === '' ? path : `${path}?${search}`;
}

/**
 * Calls a route of the table: `callRoute(ROUTE_PATHS.site.resolve, { body })`. Only the route's
 * method and path are used at run time; its schemas type the input and the answer.
 */
export function callRoute<const R extends RoutePath>(
  route: R,
  input: RouteInput<ContractOf<R>>,
  options: CallOptions = {},
): Promise<RouteAnswer<ContractOf<R>>> {
  // Seen through `unknown`: the input's type is only for the caller (and too large a union to narrow).
  const loose = input as unknown as { body?: unknown; params?: object; query?: object };
  return request(route.method, addressOf(route, loose), loose.body, options);
}
