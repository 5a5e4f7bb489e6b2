import { buildApp } from './app';
import { startJobs } from './jobs';
import { checkWorkers, isClusterWorker, runPrimary } from './cluster';
import { ConfigError, loadConfig, loadEnvFileIfPresent, type Config } from './config';
import type { DatabaseHandle } from './db';
import { openDatabaseWithRetry } from './db/open-with-retry';
import { formatDemoLinks } from './modules/demo/demo.format';
import { seedDemo } from './modules/demo/demo.seed';
import { formatDemoStudio, seedDemoOwner } from './modules/demo/demo-owner';
import { createServices, type Services } from './services';

/**
 * What a start does once, before serving: rebuild pending analytics, seed the demo into an empty
 * embedded database (SEED_DEMO), and the lines to print once serving. With WORKERS above 1 the
 * primary does it, before it starts the workers (decision 28).
 */
async function prepare(services: Services, config: Config, database: DatabaseHandle): Promise<string[]> {
  // Data stored before the analytics rollups (migration 0010) counts once they are rebuilt from it.
  if (await services.analytics.rebuildIfPending())
    process.stderr.write('analytics: rollups rebuilt from the data stored before them\n');
  const accounts = await services.accounts.list();
  // auto: seed an empty embedded database, and keep printing the demo's links while it is there.
  const seed =
    config.seedDemo === 'always' ||
    (config.seedDemo === 'auto' &&
      database.dialect === 'sqlite' &&
      (accounts.length === 0 || accounts.some((a) => a.slug === 'demo')));
  const demo = seed ? await seedDemo(services, config.publicUrl) : undefined;
  // The demo's Studio user, to sign in to the Studio with (issue 18).
  const studio = demo ? await seedDemoOwner(services, demo.accountSlug) : undefined;
  const firstRun = !demo && !(await services.users.anyUser());
  const processes = config.workers > 1 ? `, ${String(config.workers)} processes` : '';
  return [
    '',
    `Embudo is serving on ${config.publicUrl} (database: ${database.label}${processes})`,
    `  API docs: ${config.publicUrl}/api/docs`,
    ...(config.legalContactEmail
      ? []
      : [
          '  Warning: LEGAL_CONTACT_EMAIL is not set. Legal pages of accounts without their own contact',
          '  address tell visitors to write to whoever sent them the link. Set it to your address.',
        ]),
    ...(demo
      ? [...formatDemoLinks(demo), ...(studio ? formatDemoStudio(studio) : [])]
      : accounts.length > 0
        ? []
        : ['  No accounts yet: npm run embudo -- account create --slug you --name "You"']),
    ...(firstRun ? [`  Studio: ${services.links.studioUrl} (first run: create the first owner there)`] : []),
    '',
  ];
}

/**
 * WORKERS above 1, the primary: migrates (openDatabaseWithRetry) and prepares once, closes its
 * database, then starts the workers, which serve.
 */
async function primary(config: Config): Promise<void> {
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const database = await openDatabaseWithRetry(config.databaseUrl, say);
  let lines: string[];
  try {
    lines = await prepare(await createServices(database, config), config, database);
  } finally {
    await database.close();
  }
  runPrimary({
    workers: config.workers,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    say,
    onListening: () => {
      say(lines.join('\n'));
    },
  });
}

/** `npm start`: configure, migrate, seed the demo into an empty embedded database, serve. */
async function main(): Promise<void> {
  loadEnvFileIfPresent();
  const config = loadConfig();
  checkWorkers(config);
  if (config.workers > 1 && !isClusterWorker()) {
    await primary(config);
    return;
  }
  const database = await openDatabaseWithRetry(config.databaseUrl, (line) =>
    process.stderr.write(`${line}\n`),
  );

  const { server, services } = await buildApp({ config, database });
  // A worker of the cluster: the primary migrated, prepared and prints the links.
  const lines = isClusterWorker() ? [] : await prepare(services, config, database);

  const jobs = startJobs(services, config, server.log);
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    server.log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const force = setTimeout(() => {
      server.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    // Order matters: stop taking requests and finish those in flight (which flushes their events),
    // stop the background jobs, then close the database.
    server
      .close()
      .then(() => jobs.stop())
      .then(() => database.close())
      .then(() => {
        server.log.info('stopped cleanly');
        process.exit(0);
      })
      .catch((error: unknown) => {
        server.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => {
    shutdown('SIGTERM');
  });
  process.on('SIGINT', () => {
    shutdown('SIGINT');
  });

  await server.listen({ port: config.port, host: config.host });
  if (lines.length > 0) process.stderr.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`Embudo cannot start: ${error.message}\nSee .env.example for every setting.\n`);
  } else {
    process.stderr.write(`Embudo cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
