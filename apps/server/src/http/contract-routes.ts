import { readingsOf, type DocumentedLimits, type RouteContract } from '@embudo/contracts';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyReply,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The Fastify schema of a table route: its zod schemas under Fastify's names. */
export interface SchemaOf<R extends RouteContract> {
  params: R extends { params: infer S } ? S : undefined;
  querystring: R extends { query: infer S } ? S : undefined;
  body: R extends { body: infer S } ? S : undefined;
  response: R extends { response: infer S } ? S : undefined;
}

/** A handler of a table route, typed as Fastify types it: request and reply from the route's schemas. */
export type ContractHandler<R extends RouteContract> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<R>,
  ZodTypeProvider
>;

/** What a route sets beside its schema: body limit, `config.visitorEnvelope`, serializer, hooks. */
export type RouteOptions = Omit<RouteShorthandOptions, 'schema'>;

/** A route's handler, alone or with its options. */
export type HandlerEntry<R extends RouteContract> =
  ContractHandler<R> | (RouteOptions & { handler: ContractHandler<R> });

/** One handler for each route of a group of the table, by key. */
export type Handlers<Group extends Record<string, RouteContract>> = {
  [K in keyof Group]: HandlerEntry<Group[K]>;
};

export interface RegisterOptions {
  /** Options every route of the group shares (each entry's own win). */
  shared?: RouteOptions;
  /** This server's limits, for the descriptions that name them. */
  limits?: DocumentedLimits;
}

/**
 * Registers a group of the route table (ROUTES.funnels, ROUTES.tracking…) with one handler per route.
 * A visitor route answers under both path readings, with and without /api (architecture §5.1); the one
 * without stays out of the OpenAPI document. All routes' documented readings come first, as the
 * document lists them.
 */
export function registerRoutes<Group extends Record<string, RouteContract>>(
  app: FastifyInstance,
  group: Group,
  handlers: Handlers<Group>,
  options: RegisterOptions = {},
): void {
  const byKey = handlers as Record<string, HandlerEntry<RouteContract> | undefined>;
  const readings = Object.entries(group).flatMap(([key, route]) => {
    const entry = byKey[key];
    if (entry === undefined) throw new Error(`${route.method} ${route.path}: no handler for ${key}`);
    return readingsOf(route).map((reading) => ({ route, entry, ...reading }));
  });
  for (const { route, entry, path, documented } of [
    ...readings.filter((r) => r.documented),
    ...readings.filter((r) => !r.documented),
  ]) {
    const { handler, ...routeOptions } = typeof entry === 'function' ? { handler: entry } : entry;
    app.route({
      ...options.shared,
      ...routeOptions,
      method: route.method,
      url: path,
      schema: fastifySchema(route, documented, options.limits),
      handler: handler as RouteHandlerMethod,
    });
  }
}

/**
 * The Fastify schema of one reading of a route. Keys a route does not declare are left out (not set
 * to undefined): the owner scope's defaults (its NoQuery) fill them in.
 */
function fastifySchema(route: RouteContract, documented: boolean, limits: DocumentedLimits | undefined) {
  const description =
    typeof route.description === 'function'
      ? route.description(requireLimits(limits, route))
      : route.description;
  return {
    tags: [...route.tags],
    ...(route.summary === undefined ? {} : { summary: route.summary }),
    ...(description === undefined ? {} : { description }),
    ...(documented ? {} : { hide: true }),
    ...(route.params === undefined ? {} : { params: route.params }),
    ...(route.query === undefined ? {} : { querystring: route.query }),
    ...(route.body === undefined ? {} : { body: route.body }),
    ...(route.response === undefined ? {} : { response: route.response }),
  };
}

function requireLimits(limits: DocumentedLimits | undefined, route: RouteContract): DocumentedLimits {
  if (!limits) throw new Error(`${route.method} ${route.path}: its description names limits; pass them`);
  return limits;
}

/**
 * Sends JSON text made earlier (a kept answer: `page-answers.ts`) as it is. The route's response
 * schema still documents it; the text was made by JSON.stringify of that type.
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
