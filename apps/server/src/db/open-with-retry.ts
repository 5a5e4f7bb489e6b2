import { migrate, openDatabase, type DatabaseHandle } from './index';

const ATTEMPTS = 10;
const DELAY_MS = 2000;

/**
 * Opens and migrates the database. A server that cannot reach it says so on every try and gives up
 * with a clear message after about 20 s; it never hangs without a word.
 */
export async function openDatabaseWithRetry(
  url: string,
  say: (line: string) => void,
  { attempts = ATTEMPTS, delayMs = DELAY_MS }: { attempts?: number; delayMs?: number } = {},
): Promise<DatabaseHandle> {
  for (let attempt = 1; ; attempt++) {
    const handle = openDatabase(url);
    try {
      await migrate(handle);
      return handle;
    } catch (error) {
      await handle.close().catch(() => undefined);
      const reason = error instanceof Error ? error.message : String(error);
      if (attempt >= attempts || !isTransient(error)) {
        throw new Error(`the database ${handle.label} is not usable: ${reason}`);
      }
      say(
        `database ${handle.label} not reachable (${reason}); retrying in ${delayMs / 1000} s [${attempt}/${attempts}]`,
      );
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}

function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  return (
    (typeof code === 'string' &&
      ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P03', 'SQLITE_BUSY'].includes(code)) ||
    /ECONNREFUSED|ECONNRESET|ETIMEDOUT|the database system is starting up|^Connection terminated|timeout exceeded when trying to connect/.test(
      message,
    )
  );
}
