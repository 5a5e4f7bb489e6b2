/**
 * The visitor API client: the route table's typed client (`callRoute`, visitor-behaviour §7 and §9) with the
 * visitor routes' paths, and the plain `request` it is built on, from the contracts' zod-free client.
 */
export { callRoute, request, VISITOR_ROUTE_PATHS, type CallOptions } from '@embudo/contracts/client';
