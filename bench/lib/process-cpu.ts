/**
 * CPU time a process has used, every thread of it, read from /proc/<pid>/stat (Linux): its user and
 * system clock ticks (fields 14 and 15), at 100 ticks a second as on every Linux this runs on.
 */
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** Seconds of CPU the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its end.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system)) throw new Error(`unreadable /proc/${pid}/stat`);
  return (user + system) / TICKS_PER_SECOND;
}
