import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import {
  AccountCreate,
  FunnelCreate,
  LeadCreate,
  NewPassword,
  PreviewCreate,
  Role,
  type FunnelCreateInput,
} from '@embudo/contracts';
import { Command, InvalidArgumentError } from 'commander';
import { z, ZodError } from 'zod';
import { ConfigError, loadConfig, loadEnvFileIfPresent } from '../config';
import { backupSqlite } from '../db/backup';
import { HttpError } from '../lib/http-errors';
import { formatDemoLinks } from '../modules/demo/demo.format';
import { seedDemo } from '../modules/demo/demo.seed';
import { formatDemoStudio, seedDemoOwner } from '../modules/demo/demo-owner';
import { accountBySlug, openCliContext, type CliContext } from './context';
import { importInBatches, leadsToCsv, leadsToCsvLines, readLeadsCsv } from './csv-import';
import { printable, printableJson } from './terminal-text';

interface JsonOption {
  json?: boolean;
}

/** Runs one command with an open database; prints JSON or the human text, then closes. */
function run<O extends JsonOption>(
  action: (ctx: CliContext, options: O) => Promise<{ json: unknown; text: string[] }>,
) {
  return async (options: O): Promise<void> => {
    const ctx = await openCliContext();
    try {
      const result = await action(ctx, options);
      // Names come from leads and owners: nothing they hold may act on the operator's terminal.
      process.stdout.write(
        options.json
          ? `${printableJson(JSON.stringify(result.json, null, 2))}\n`
          : `${result.text.map(printable).join('\n')}\n`,
      );
    } finally {
      await ctx.database.close();
    }
  };
}

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive whole number');
  return n;
};

const program = new Command('embudo')
  .description(
    'Embudo operator CLI: accounts, funnels, leads and preview links, on the configured DATABASE_URL.',
  )
  .showHelpAfterError();

const account = program.command('account').description('accounts (funnel owners)');
account
  .command('create')
  .description('create an account and print its API key (shown this once)')
  .requiredOption('--slug <slug>', 'the first path segment of its links')
  .requiredOption('--name <name>', 'display name')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption & { slug: string; name: string }>(async ({ services }, o) => {
      const created = await services.accounts.create(AccountCreate.parse({ slug: o.slug, name: o.name }));
      return {
        json: created,
        text: [
          `account '${created.account.slug}' created`,
          `API key (shown once, keep it safe): ${created.apiKey}`,
        ],
      };
    }),
  );
account
  .command('list')
  .description('list accounts')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption>(async ({ services }) => {
      const rows = await services.accounts.list();
      return {
        json: rows.map((r) => ({
          id: r.id,
          slug: r.slug,
          name: r.name,
          subscriptionStatus: r.subscriptionStatus,
        })),
        text: rows.map((r) => `${r.slug.padEnd(20)} ${r.name} (${r.subscriptionStatus})`),
      };
    }),
  );

/** A password for someone to change later: 120 random bits, URL-safe (20 characters). */
const generatedPassword = () => randomBytes(15).toString('base64url');
/** The password given, checked as the Studio checks a new one (length here, commonness by the service). */
const givenPassword = (password: string) => z.object({ password: NewPassword }).parse({ password }).password;

const user = program
  .command('user')
  .description("the Studio's users: people who sign in with e-mail and password");
user
  .command('create')
  .description(
    'create a user (no account yet: add them with `member add`); prints a generated password if none is given',
  )
  .requiredOption('--email <email>', 'their e-mail, which they sign in with')
  .requiredOption('--name <name>', 'their name')
  .option('--password <password>', 'at least 10 characters; generated and printed when left out')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption & { email: string; name: string; password?: string }>(async ({ services }, o) => {
      const password = o.password === undefined ? generatedPassword() : givenPassword(o.password);
      const created = await services.users.create({ email: o.email, name: o.name, password });
      const shown = o.password === undefined ? { password } : {};
      return {
        json: { user: created, ...shown },
        text: [
          `user ${created.email} created`,
          ...(o.password === undefined
            ? [`password (shown once, to change in the Studio): ${password}`]
            : []),
        ],
      };
    }),
  );
user
  .command('reset-password')
  .description("set a user's password (generated and printed when none is given) and end all their sessions")
  .requiredOption('--email <email>', 'the user')
  .option('--password <password>', 'at least 10 characters; generated and printed when left out')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption & { email: string; password?: string }>(async ({ services }, o) => {
      const found = await services.users.findByEmail(o.email);
      if (!found) throw new HttpError(404, 'NOT_FOUND', `no user with the e-mail ${o.email}`);
      const password = o.password === undefined ? generatedPassword() : givenPassword(o.password);
      await services.users.setPassword(found.id, password);
      await services.sessions.endAll(found.id);
      return {
        json: { user: found, ...(o.password === undefined ? { password } : {}) },
        text: [
          `password of ${found.email} reset; their sessions have ended`,
          ...(o.password === undefined ? [`new password (shown once): ${password}`] : []),
        ],
      };
    }),
  );

const analytics = program.command('analytics').description('the analytics rollups (decision 25)');
analytics
  .command('rebuild')
  .description(
    "recompute the analytics of every account, or of one, from the raw rows, in each account's time zone; " +
      'run it with the server stopped',
  )
  .option('--account <slug>', 'only this account')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption & { account?: string }>(async ({ services }, o) => {
      const rebuilt =
        o.account === undefined
          ? (await services.analytics.rebuildAll()).map(({ account, counts }) => ({ account, ...counts }))
          : [
              {
                account: o.account,
                ...(await services.analytics.rebuild((await accountBySlug(services, o.account)).id)),
              },
            ];
      return {
        json: { rebuilt },
        text: rebuilt.map(
          (r) =>
            `${r.account}: ${String(r.leads)} leads, ${String(r.sessions)} sessions, ${String(r.videoRecords)} video records, ` +
            `${String(r.actions)} actions, ${String(r.conversions)} conversions replayed`,
        ),
      };
    }),
  );

const member = program.command('member').description('who belongs to an account, with which role');
member
  .command('add')
  .description('make a user a member of an account with a role: viewer, editor or owner')
  .requiredOption('--email <email>', 'the user')
  .requiredOption('--account <slug>', 'the account')
  .requiredOption('--role <role>', 'viewer, editor or owner')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption & { email: string; account: string; role: string }>(async ({ services }, o) => {
      const { role } = z.object({ role: Role }).parse({ role: o.role });
      const found = await services.users.findByEmail(o.email);
      if (!found) throw new HttpError(404, 'NOT_FOUND', `no user with the e-mail ${o.email}`);
      const owner = await accountBySlug(services, o.account);
      const existing = await services.members.membership(found.id, owner.id);
      if (existing)
        throw new HttpError(
          409,
          'CONFLICT',
          `${found.email} is already a member of '${owner.slug}' as ${existing.role}; change roles in the Studio`,
        );
      await services.members.add(found.id, owner.id, role);
      return {
        json: { userId: found.id, email: found.email, account: owner.slug, role },
        text: [`${found.email} is now ${role} of '${owner.slug}'`],
      };
    }),
  );

const funnel = program.command('funnel').description("an account's funnels");
funnel
  .command('create')
  .requiredOption('--account <slug>', 'owner account')
  .requiredOption('--name <name>', 'funnel name')
  .option('--type <type>', 'VSL or LPI', 'VSL')
  .option('--language <language>', 'es, pt or en', 'es')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption & { account: string; name: string; type: string; language: string }>(
      async ({ services }, o) => {
        const owner = await accountBySlug(services, o.account);
        const input: FunnelCreateInput = {
          name: o.name,
          typeFunnel: o.type as FunnelCreateInput['typeFunnel'],
          language: o.language as FunnelCreateInput['language'],
        };
        const created = await services.funnels.create(owner, FunnelCreate.parse(input));
        return { json: created, text: [`funnel '${created.name}' created: ${created.id}`] };
      },
    ),
  );
funnel
  .command('list')
  .requiredOption('--account <slug>', 'owner account')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption & { account: string }>(async ({ services }, o) => {
      const funnels = await services.funnels.list(await accountBySlug(services, o.account));
      return {
        json: funnels,
        text: funnels.map((f) => `${f.id}  ${f.typeFunnel.padEnd(4)} ${f.name} (${f.pageCount} pages)`),
      };
    }),
  );

const lead = program.command('lead').description("a funnel's leads");
lead
  .command('create')
  .requiredOption('--account <slug>', 'owner account')
  .requiredOption('--funnel <id>', 'funnel id')
  .requiredOption('--name <name>', 'lead name')
  .option('--email <email>')
  .option('--phone <phone>')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption & { account: string; funnel: string; name: string; email?: string; phone?: string }>(
      async ({ services }, o) => {
        const owner = await accountBySlug(services, o.account);
        const created = await services.leads.create(
          owner,
          o.funnel,
          LeadCreate.parse({ name: o.name, email: o.email, phone: o.phone }),
        );
        return {
          json: created,
          text: [`lead '${created.lead.name}' created; personal link (shown once):`, created.url],
        };
      },
    ),
  );
lead
  .command('list')
  .requiredOption('--account <slug>', 'owner account')
  .requiredOption('--funnel <id>', 'funnel id')
  .option('--limit <n>', 'how many', positiveInt, 50)
  .option('--cursor <cursor>', 'continue after this cursor')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption & { account: string; funnel: string; limit: number; cursor?: string }>(
      async ({ services }, o) => {
        const page = await services.leads.list(await accountBySlug(services, o.account), o.funnel, {
          limit: Math.min(o.limit, 200),
          cursor: o.cursor,
        });
        return {
          json: page,
          text: [
            ...page.items.map((l) => `${l.id}  ${l.name}${l.email ? ` <${l.email}>` : ''}`),
            ...(page.nextCursor ? [`more: --cursor ${page.nextCursor}`] : []),
          ],
        };
      },
    ),
  );
lead
  .command('import')
  .description('import leads from a CSV file (header: name,email,phone) and write their links')
  .requiredOption('--account <slug>', 'owner account')
  .requiredOption('--funnel <id>', 'funnel id')
  .requiredOption('--file <path>', 'CSV file')
  .option('--out <path>', 'write name,email,phone,url CSV here (links are shown only once)')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption & { account: string; funnel: string; file: string; out?: string }>(
      async ({ services }, o) => {
        const owner = await accountBySlug(services, o.account);
        await services.funnels.load(owner, o.funnel);
        const rows = await readLeadsCsv(o.file);
        const created = await importInBatches(
          rows,
          (batch) => services.leads.import(owner, o.funnel, batch).then((r) => r.leads),
          !o.json,
        );
        if (o.out) writeFileSync(o.out, leadsToCsv(created), { mode: 0o600 });
        return {
          json: {
            count: created.length,
            leads: created.map((c) => ({ name: c.lead.name, token: c.token, url: c.url })),
          },
          text: [
            `${created.length} leads imported`,
            ...(o.out ? [`links written to ${o.out}`] : leadsToCsvLines(created)),
          ],
        };
      },
    ),
  );

program
  .command('preview')
  .description('create a preview link for a page (and the pages after it)')
  .requiredOption('--account <slug>', 'owner account')
  .requiredOption('--page <id>', 'page id')
  .option('--ttl <minutes>', 'minutes it stays valid', positiveInt)
  .option('--json', 'print JSON')
  .action(
    run<JsonOption & { account: string; page: string; ttl?: number }>(async ({ services }, o) => {
      const owner = await accountBySlug(services, o.account);
      const created = await services.previews.create(
        owner,
        o.page,
        PreviewCreate.parse({ ttlMinutes: o.ttl }),
      );
      return { json: created, text: [`preview link (valid until ${created.expiresAt}):`, created.url] };
    }),
  );

program
  .command('demo')
  .description('create the demo accounts, funnels and leads (idempotent) and print their links')
  .option('--json', 'print JSON')
  .action(
    run<JsonOption>(async ({ services, config }) => {
      const demo = await seedDemo(services, config.publicUrl);
      const studio = await seedDemoOwner(services, demo.accountSlug);
      return {
        json: { ...demo, studio },
        text: [...formatDemoLinks(demo).slice(1), ...formatDemoStudio(studio)],
      };
    }),
  );

program
  .command('backup')
  .description(
    'copy the embedded SQLite database to a new file, consistently, while the server runs ' +
      '(PostgreSQL: pg_dump, see deploy/README.md)',
  )
  .argument('<file>', 'the new file')
  .action(async (file: string) => {
    loadEnvFileIfPresent();
    const { pages } = await backupSqlite(loadConfig().databaseUrl, file);
    process.stdout.write(`${printable(`backed up ${String(pages)} pages to ${file}`)}\n`);
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  const message =
    error instanceof HttpError || error instanceof ConfigError
      ? error.message
      : error instanceof ZodError
        ? error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('\n')
        : error instanceof Error
          ? error.message
          : String(error);
  process.stderr.write(`embudo: ${message.split('\n').map(printable).join('\n')}\n`);
  process.exitCode = 1;
});
