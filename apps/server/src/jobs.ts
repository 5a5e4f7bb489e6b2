import { TIMING } from '@embudo/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Services } from './services';

/** How often the server looks for sessions whose end never arrived. */
const SWEEP_EVERY_MS = 60_000;
/**
 * A session with no event for twice the visitor's inactivity timeout is closed by the server: the
 * browser would have ended it itself by then, so its end request was lost (a crash, a dead battery).
 */
export const SESSION_IDLE_MS = 2 * TIMING.inactivityTimeout;

export interface Jobs {
  stop(): Promise<void>;
}

/** Background work of a serving process (not of the CLI or of tests that do not ask for it). */
export function startJobs(
  services: Pick<Services, 'pixelWorker' | 'tracking'>,
  config: Pick<Config, 'pixelWorker' | 'pixelApiUrl'>,
  log: FastifyBaseLogger,
): Jobs {
  // Conversions waiting in the outbox go to the owners' pixels (architecture §5.10).
  const pixelWorker = config.pixelWorker
    ? services.pixelWorker({
        apiUrl: config.pixelApiUrl,
        logger: log,
      })
    : undefined;
  pixelWorker?.start();
  let sweeping: Promise<void> | null = null;
  const sweep = (): void => {
    sweeping ??= services.tracking
      .closeStaleSessions(SESSION_IDLE_MS)
      .then((closed) => {
        if (closed > 0) log.info({ closed }, 'closed page sessions whose end never arrived');
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'closing stale sessions failed');
      })
      .finally(() => {
        sweeping = null;
      });
  };
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all([sweeping, pixelWorker?.stop()]);
    },
  };
}
