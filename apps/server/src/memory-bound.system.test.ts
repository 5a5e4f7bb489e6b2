import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServerBundle, SERVER_NODE_FLAGS } from '../../../scripts/build-server';
import { loadConfig } from './config';
import { migrate, openDatabase } from './db';
import { createServices } from './services';
import { freePort } from '../test/free-port';

/**
 * Issue 16, item 1: one tenant's content must not be able to run the process out of memory. The real
 * bundle runs as `npm start` runs it (its heap flags), on SQLite; one account's API key fills a funnel
 * to the limits and re-saves and opens it round after round, and the process must stay up and small.
 */

const ROUNDS = 20;
const RSS_CEILING_MB = 200;
/** The limits the server runs with: its defaults. */
const LIMITS = loadConfig({}).ownerLimits;
const RICH_TEXT = ['topline', 'headline', 'subheadline', 'buttonCopy'] as const;

/** The largest rich text each of the four fields of every page may hold under the limits. */
const FIELD_CHARS = Math.min(
  LIMITS.richTextChars,
  Math.floor(LIMITS.funnelContentChars / (LIMITS.pagesPerFunnel * RICH_TEXT.length)),
);

/** `length` CJK characters, different for every round, page and field. */
function cjk(length: number, seed: number): string {
  const chars: string[] = [];
  for (let i = 0; i < length; i += 1)
    chars.push(String.fromCharCode(0x4e00 + ((seed * 7919 + i * 31) % 20_000)));
  return chars.join('');
}

const pageContent = (round: number, page: number) =>
  Object.fromEntries(RICH_TEXT.map((field, f) => [field, cjk(FIELD_CHARS, round * 1000 + page * 10 + f)]));

/** The resident set of a process now, and at its peak, in MB (Linux's /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

describe('one tenant cannot run the server out of memory (the real process, SQLite)', () => {
  let dir: string;
  let child: ChildProcessWithoutNullStreams;
  let stderr = '';
  let exitCode: number | null | undefined;
  let apiKey = '';
  // A port the system gives: one picked at random can be a connection's own port of another test.
  let port = 0;
  let base = '';

  const owner = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}/api/owner${path}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dir = mkdtempSync(join(tmpdir(), 'embudo-memory-'));
    const url = `sqlite:${join(dir, 'e.db')}`;
    // The account exists before the server starts, as one made with `npm run embudo` would.
    const database = openDatabase(url);
    await migrate(database);
    const services = await createServices(database, { publicUrl: base, baseDomains: ['127.0.0.1'] });
    apiKey = (await services.accounts.create({ slug: 'tenant', name: 'Tenant' })).apiKey;
    await database.close();

    child = spawn(process.execPath, [...SERVER_NODE_FLAGS, await buildServerBundle()], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: url,
        PUBLIC_URL: base,
        SEED_DEMO: 'never',
        LOG_LEVEL: 'warn',
        // The test makes some 1,300 owner requests in well under a minute; every other limit is the default.
        OWNER_RATE_LIMIT_PER_MINUTE: '0',
      },
      stdio: 'pipe',
    });
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => (exitCode = code));
    const until = Date.now() + 60_000;
    while (!stderr.includes('Embudo is serving on')) {
      if (Date.now() > until || exitCode !== undefined)
        throw new Error(`the server did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 120_000);

  afterAll(() => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it(`stays up and under ${RSS_CEILING_MB} MB through ${ROUNDS} rounds of re-saving a funnel full to the limits and opening it`, async () => {
    const funnel = await owner('POST', '/funnels', { name: 'Grande' });
    expect(funnel.status).toBe(201);
    const funnelId = String(funnel.body.id);
    const pageIds: string[] = [];
    for (let p = 0; p < LIMITS.pagesPerFunnel; p += 1) {
      const page = await owner('POST', `/funnels/${funnelId}/pages`, pageContent(0, p));
      expect(page.status, JSON.stringify(page.body).slice(0, 300)).toBe(201);
      pageIds.push(String(page.body.id));
    }
    const lead = await owner('POST', `/funnels/${funnelId}/leads`, { name: 'Ana' });
    expect(lead.status).toBe(201);
    const link = String(lead.body.url);

    let rounds = 0;
    let peakRss = 0;
    let failure = '';
    try {
      for (let round = 1; round <= ROUNDS; round += 1) {
        for (const [p, id] of pageIds.entries()) {
          const saved = await owner('PATCH', `/pages/${id}`, pageContent(round, p));
          if (saved.status !== 200) throw new Error(`round ${round}: PATCH answered ${saved.status}`);
        }
        const html = await (await fetch(link)).text();
        if (!html.includes(cjk(FIELD_CHARS, round * 1000 + 1).slice(0, 40)))
          throw new Error(`round ${round}: the lead's page does not show this round's headline`);
        peakRss = Math.max(peakRss, memoryOf(child.pid ?? 0).rss);
        rounds = round;
      }
    } catch (error) {
      failure = `${String(error)}${exitCode === undefined ? '' : ` (the process exited with ${exitCode})`}`;
    }
    // VmHWM is the kernel's own peak; a process that died has none left to read.
    const peak = exitCode === undefined ? memoryOf(child.pid ?? 0).peak : peakRss;
    console.log(
      `memory-bound: ${rounds}/${ROUNDS} rounds, ${LIMITS.pagesPerFunnel} pages x 4 fields x ${FIELD_CHARS} CJK characters; ` +
        `peak RSS ${peak.toFixed(1)} MB (VmHWM), highest sampled VmRSS ${peakRss.toFixed(1)} MB` +
        (failure ? `; FAILED: ${failure}` : ''),
    );
    const heapLimit = /Reached heap limit|JavaScript heap out of memory/.exec(stderr)?.[0];
    expect(heapLimit ?? failure).toBe('');
    expect(rounds).toBe(ROUNDS);
    expect(peak).toBeLessThan(RSS_CEILING_MB);

    // A save beyond a limit is refused, naming the limit, and writes nothing.
    const more = await owner('POST', `/funnels/${funnelId}/pages`, { headline: 'Una más' });
    expect(more.status).toBe(409);
    expect(more.body.message).toContain(`a funnel has at most ${LIMITS.pagesPerFunnel} pages`);
    const [first = ''] = pageIds;
    const tooLong = await owner('PATCH', `/pages/${first}`, {
      headline: '中'.repeat(LIMITS.richTextChars + 1),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toContain(
      `a rich-text field holds at most ${LIMITS.richTextChars} characters`,
    );
    const tooMuch = await owner('PATCH', `/pages/${first}`, { videoLibrary: 'x'.repeat(200) });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toContain(
      `a funnel's pages hold at most ${LIMITS.funnelContentChars} characters of text`,
    );
    const kept = await owner('GET', `/pages/${first}`);
    expect(kept.body.headline).toBe(pageContent(ROUNDS, 0).headline);
    expect(kept.body.videoLibrary).toBeNull();
  }, 600_000);
});
