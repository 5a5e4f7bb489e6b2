import { migrate, openDatabase, type DatabaseHandle } from './index';
import { isDatabaseUnavailable } from './unavailable';

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
      if (attempt >= attempts || !isDatabaseUnavailable(error)) {
        throw new Error(`the database ${handle.label} is not usable: ${reason}`);
      }
      say(
        `database ${handle.label} not reachable (${reason}); retrying in ${delayMs / 1000} s [${attempt}/${attempts}]`,
      );
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}
