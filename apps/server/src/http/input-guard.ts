import type { FastifyRequest } from 'fastify';
import { badRequest } from '../lib/http-errors';

/** Deeper than any real request; deeper input is refused before anything walks it recursively. */
export const MAX_DEPTH = 32;

type Finding = { path: string; problem: 'nul' | 'depth' };

/** An object or array still to walk, and where it sits (its path is built only for a finding). */
interface Container {
  value: object;
  key: string;
  parent: Container | undefined;
  depth: number;
}

function pathOf(container: Container, key?: string): string {
  const keys = key === undefined ? [] : [key];
  for (let at: Container | undefined = container; at !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * Walks a parsed body without recursion: the first string holding U+0000, or a too-deep nesting.
 * It runs on every request, so it allocates only one entry per object or array it walks.
 */
function inspect(root: unknown, rootPath: string): Finding | undefined {
  if (typeof root === 'string')
    return root.includes('\u0000') ? { path: rootPath, problem: 'nul' } : undefined;
  if (root === null || typeof root !== 'object') return undefined;
  const stack: Container[] = [{ value: root, key: rootPath, parent: undefined, depth: 0 }];
  for (let container = stack.pop(); container !== undefined; container = stack.pop()) {
    if (container.depth >= MAX_DEPTH) return { path: pathOf(container), problem: 'depth' };
    const object = container.value as Record<string, unknown>;
    for (const key in object) {
      if (!Object.hasOwn(object, key)) continue;
      if (key.includes('\u0000')) return { path: pathOf(container), problem: 'nul' };
      const item = object[key];
      if (typeof item === 'string') {
        if (item.includes('\u0000')) return { path: pathOf(container, key), problem: 'nul' };
      } else if (item !== null && typeof item === 'object')
        stack.push({ value: item, key, parent: container, depth: container.depth + 1 });
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
