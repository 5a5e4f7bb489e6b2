import type { Account } from '@embudo/contracts';
import { loadConfig, loadEnvFileIfPresent, type Config } from '../config';
import { migrate, openDatabase, type DatabaseHandle } from '../db';
import { HttpError } from '../lib/http-errors';
import { createServices, type Services } from '../services';

export interface CliContext {
  config: Config;
  database: DatabaseHandle;
  services: Services;
}

/** The CLI works on the database directly, as the operator, with the server's own services. */
export async function openCliContext(): Promise<CliContext> {
  loadEnvFileIfPresent();
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  await migrate(database);
  return { config, database, services: await createServices(database, config) };
}

export async function accountBySlug(services: Services, slug: string): Promise<Account> {
  const account = await services.accounts.findBySlug(slug.toLowerCase());
  if (!account) throw new HttpError(404, 'NOT_FOUND', `no account with the slug '${slug}'`);
  return account;
}
