/**
 * The visitor API client: the route table's typed client (`callRoute`, spec §7 and §9), and the
 * plain `request` it is built on, from the contracts' zod-free client.
 */
export { callRoute, request, ROUTE_PATHS, type CallOptions } from '@embudo/contracts/client';
