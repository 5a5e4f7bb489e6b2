import { TOKEN_SHAPE } from '../lib/tokens';

const SECRET_QUERY_PARAMS = new Set(['previewToken', 'token', 'apiKey', 'key']);

/**
 * A request address fit for a log line: path segments shaped like tokens and token-carrying query
 * parameters are replaced, since a lead link is a credential (architecture §5.5).
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const redactedPath = path
    .split('/')
    .map((segment) => (TOKEN_SHAPE.test(segment) ? '[token]' : segment))
    .join('/');
  if (queryAt === -1) return redactedPath;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY_PARAMS.has(key)) params.set(key, '[token]');
  return `${redactedPath}?${params.toString()}`;
}

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.apiKey',
  '*.token',
  '*.accessToken',
];
