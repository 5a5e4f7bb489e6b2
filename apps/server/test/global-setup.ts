import { TEST_DIALECTS } from './databases';

export default function setup(): void {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const pgLine = pgUrl
    ? `PostgreSQL at ${new URL(pgUrl).host}${new URL(pgUrl).pathname}`
    : 'PostgreSQL skipped (set TEST_DATABASE_URL=postgres://… to include it)';
  console.log(`database tier: ${TEST_DIALECTS.join(' + ')} — SQLite file per test file; ${pgLine}`);
}
