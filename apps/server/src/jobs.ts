import { TIMING } from '@embudo/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Services } from './services';

/** How often the server looks for sessions whose end never arrived. */
const SWEEP_EVERY_MS = 60_000;
/**
 * How often the server looks for custom domains due for a check (each is due DOMAIN_CHECK_MINUTES
 * after its last): a domain is claimed by one runner, whichever process finds it first.
 */
const DOMAIN_CHECKS_EVERY_MS = 60_000;
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
  services: Pick<Services, 'pixelWorker' | 'tracking' | 'domains'>,
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

  // Custom domains' DNS records, looked up again (decision 27).
  let checking: Promise<void> | null = null;
  const checkDomains = (): void => {
    checking ??= services.domains
      .checkDue()
      .then((checked) => {
        if (checked > 0) log.info({ checked }, 'custom domains checked');
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'checking custom domains failed');
      })
      .finally(() => {
        checking = null;
      });
  };
  const domainTimer = setInterval(checkDomains, DOMAIN_CHECKS_EVERY_MS);
  domainTimer.unref();
  checkDomains();
  return {
    async stop() {
      clearInterval(timer);
      clearInterval(domainTimer);
      await Promise.all([sweeping, checking, pixelWorker?.stop()]);
    },
  };
}
