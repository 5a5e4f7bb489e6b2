/** Codes of a database that cannot be reached or is not taking connections now (pg, SQLite, Node). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  // PostgreSQL: shutting down, starting up, connection failures.
  '57P01',
  '57P03',
  '08006',
  '08001',
  '08003',
  'SQLITE_BUSY',
]);

/** What node-postgres and Node say, without a code, when a connection drops or cannot be made. */
const UNAVAILABLE_MESSAGE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|the database system is starting up|^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * Whether an error means the database is out of reach for now, so that waiting may mend it: a
 * request then answers 503, and start-up tries again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  return error instanceof Error && UNAVAILABLE_MESSAGE.test(error.message);
}
