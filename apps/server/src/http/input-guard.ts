import type { FastifyRequest } from 'fastify';
import { badRequest } from '../lib/http-errors';

/** Deeper than any real request; deeper input is refused before anything walks it recursively. */
export const MAX_DEPTH = 32;

type Finding = { path: string; problem: 'nul' | 'depth' };

/** Walks a parsed body without recursion: the first string holding U+0000, or a too-deep nesting. */
function inspect(root: unknown, rootPath: string): Finding | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value: root, path: rootPath, depth: 0 },
  ];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { path, problem: 'nul' };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) return { path, problem: 'depth' };
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return { path, problem: 'nul' };
      stack.push({ value: item, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Refused at the door, before validation: U+0000 (PostgreSQL cannot store it in text and SQLite
 * would, so both databases behave alike) and nesting deeper than MAX_DEPTH (nothing real needs it,
 * and it would cost every recursive step after this one).
 */
export async function rejectUnstorableInput(request: FastifyRequest): Promise<void> {
  const found =
    inspect(request.body, 'body') ??
    inspect(request.query, 'querystring') ??
    inspect(request.params, 'params');
  if (found?.problem === 'nul') {
    throw badRequest(`${found.path} contains a NUL character (U+0000), which cannot be stored`, [
      { path: found.path, message: 'contains a NUL character' },
    ]);
  }
  if (found?.problem === 'depth') {
    throw badRequest(`${found.path} is nested more than ${MAX_DEPTH} levels deep`, [
      { path: found.path, message: `nested more than ${MAX_DEPTH} levels deep` },
    ]);
  }
  return Promise.resolve();
}
