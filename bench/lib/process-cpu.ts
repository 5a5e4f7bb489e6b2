/**
 * CPU time of processes, read from /proc/<pid>/stat (Linux): user and system clock ticks (fields 14
 * and 15) of every thread, at 100 ticks a second as on every Linux this runs on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const TICKS_PER_SECOND = 100;

interface Stat {
  /** The process group (field 5). */
  group: number;
  /** Seconds of CPU used so far, every thread of it. */
  seconds: number;
}

/** A process's stat, or one thread's (`pid/task/tid`). */
function statOf(pid: number | string): Stat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its end.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system)) throw new Error(`unreadable /proc/${pid}/stat`);
  return { group: Number(fields[2]), seconds: (user + system) / TICKS_PER_SECOND };
}

/** Seconds of CPU the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = statOf(pid);
  if (stat === undefined) throw new Error(`no process ${pid}`);
  return stat.seconds;
}

/** Seconds of CPU each thread of the process has used so far, by thread id, with the thread's name. */
export function threadCpuSeconds(pid: number): Map<number, { name: string; seconds: number }> {
  const threads = new Map<number, { name: string; seconds: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = statOf(`${pid}/task/${tid}`);
    if (stat === undefined) continue;
    const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    threads.set(Number(tid), { name, seconds: stat.seconds });
  }
  return threads;
}

/**
 * Seconds of CPU every process of a process group has used so far: a server started detached leads a
 * group of its own, and run from source, tsx runs the server in a child of it.
 */
export function groupCpuSeconds(group: number): number {
  let seconds = 0;
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = statOf(pid);
    if (stat?.group === group) seconds += stat.seconds;
  }
  return seconds;
}

/** A running total of CPU seconds of what a meter watches. */
export interface CpuMeter {
  read(): Promise<number>;
  close(): Promise<void>;
}

/** PostgreSQL's processes that write for every backend: their work is the load's too. */
const WRITERS = ['walwriter', 'checkpointer', 'background writer'];

/**
 * The CPU of a server's PostgreSQL backends (those of its connections, told apart by
 * `application_name`, which the server's pool takes from PGAPPNAME) and of PostgreSQL's writers,
 * when PostgreSQL runs on this machine. Each process counts with the most it was seen to have used,
 * so that a backend closed between two readings keeps what it used until it was last seen.
 */
export async function postgresCpuMeter(url: string, applicationName: string): Promise<CpuMeter> {
  const client = new pg.Client({ connectionString: url, application_name: 'embudo-bench-meter' });
  await client.connect();
  const seen = new Map<number, number>();
  return {
    async read() {
      const { rows } = await client.query<{ pid: number }>(
        'select pid from pg_stat_activity where application_name = $1 or backend_type = any($2)',
        [applicationName, WRITERS],
      );
      for (const { pid } of rows) {
        const stat = statOf(pid);
        if (stat !== undefined) seen.set(pid, Math.max(seen.get(pid) ?? 0, stat.seconds));
      }
      let seconds = 0;
      for (const value of seen.values()) seconds += value;
      return seconds;
    },
    close: () => client.end(),
  };
}

/** Whether a database URL names PostgreSQL on this machine (so that its processes' CPU can be read). */
export function postgresIsLocal(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host === '[::1]';
}

/** A server's CPU: its process group, and its PostgreSQL backends when given. */
export function serverCpuMeter(group: number, postgres?: CpuMeter): CpuMeter {
  return {
    read: async () => groupCpuSeconds(group) + (postgres ? await postgres.read() : 0),
    close: async () => {
      await postgres?.close();
    },
  };
}
