import type { FastifyRequest } from 'fastify';
import { badRequest } from '../lib/http-errors';

/** The first path (like `body.leads.3.name`) of a string holding U+0000, if any. */
function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${path}.${i}`);
      if (found !== undefined) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findNul(key, path) ?? findNul(item, `${path}.${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * PostgreSQL cannot store U+0000 in text and SQLite would; refuse it everywhere, at the door, so both
 * databases behave alike and no request reaches a 500.
 */
export async function rejectNulCharacters(request: FastifyRequest): Promise<void> {
  const path =
    findNul(request.body, 'body') ??
    findNul(request.query, 'querystring') ??
    findNul(request.params, 'params');
  if (path !== undefined) {
    throw badRequest(`${path} contains a NUL character (U+0000), which cannot be stored`, [
      { path, message: 'contains a NUL character' },
    ]);
  }
  return Promise.resolve();
}
