import { defineConfig } from 'vitest/config';

/**
 * Four tiers, told apart by the file name (docs/conventions.md "Tests"):
 * - unit     `*.test.ts(x)`: no server, process or database (enforced by apps/server/test/unit-guard.ts);
 * - db       `*.db.test.ts`: in the test process, on SQLite files and PostgreSQL (TEST_DIALECTS),
 *            servers included (startTestServer, stand-ins on a loopback port);
 * - system   `*.system.test.ts`: real server processes, SIGKILL, outages, Redis;
 * - e2e      `e2e/*.test.ts`: Debian's Chromium against a real server.
 */
const SOURCES = [
  'apps/*/src/**/*.test.{ts,tsx}',
  'apps/*/test/**/*.test.{ts,tsx}',
  'packages/*/src/**/*.test.{ts,tsx}',
  'bench/**/*.test.{ts,tsx}',
  'scripts/**/*.test.{ts,tsx}',
];
const DB = '**/*.db.test.{ts,tsx}';
const SYSTEM = '**/*.system.test.{ts,tsx}';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: SOURCES,
          exclude: ['**/node_modules/**', DB, SYSTEM],
          environment: 'node',
          setupFiles: ['./apps/server/test/unit-guard.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'db',
          include: SOURCES.map((glob) => glob.replace('*.test.', '*.db.test.')),
          environment: 'node',
          globalSetup: ['./apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'system',
          include: SOURCES.map((glob) => glob.replace('*.test.', '*.system.test.')),
          environment: 'node',
          globalSetup: ['./apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['./e2e/global-setup.ts'],
          // Pages wait on real browsers and servers on a shared 2-core machine: polls wait up to 10 s.
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
