/**
 * Resident memory of the server processes, read from /proc (Linux). Run from the bundle, the process
 * started is the server. Run from the sources, `tsx apps/server/src/main.ts` is a small launcher that
 * runs the server in a child node process: the child is the server, so that is the one watched, and
 * the launcher is recorded beside it.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessMemory {
  label: string;
  pid: number;
  /** Largest VmRSS seen by the 100 ms samples, in KiB. */
  sampledPeakKb: number;
  /** The kernel's own high-water mark (VmHWM) at the last sample: it misses nothing between samples. */
  highWaterKb: number;
  samples: number;
  /** The tsx launcher's largest VmRSS, in KiB (not counted in the row); 0 when there is none. */
  launcherPeakKb: number;
}

/** Samples every server it is given, from `watch` until `stop` (or until the process is gone). */
export class MemoryWatch {
  private readonly watched: ProcessMemory[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  /** `viaLauncher`: the servers are started through tsx, so each one is the child of the pid given. */
  constructor(private readonly viaLauncher: boolean) {}

  /** Starts sampling the server started as `startedPid`; returns a function that stops it. */
  watch(label: string, startedPid: number | undefined, everyMs = 100): () => void {
    if (startedPid === undefined) return () => undefined;
    const pid = this.viaLauncher ? (childOf(startedPid) ?? startedPid) : startedPid;
    const entry: ProcessMemory = {
      label,
      pid,
      sampledPeakKb: 0,
      highWaterKb: 0,
      samples: 0,
      launcherPeakKb: 0,
    };
    this.watched.push(entry);
    const sample = (): boolean => {
      const status = readStatus(pid);
      if (!status) return false;
      entry.samples += 1;
      entry.sampledPeakKb = Math.max(entry.sampledPeakKb, status.rssKb);
      entry.highWaterKb = Math.max(entry.highWaterKb, status.hwmKb);
      if (pid !== startedPid)
        entry.launcherPeakKb = Math.max(entry.launcherPeakKb, readStatus(startedPid)?.rssKb ?? 0);
      return true;
    };
    sample();
    const timer = setInterval(() => {
      if (!sample()) stop();
    }, everyMs);
    this.timers.add(timer);
    const stop = (): void => {
      if (!this.timers.has(timer)) return;
      sample();
      clearInterval(timer);
      this.timers.delete(timer);
    };
    return stop;
  }

  stopAll(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
  }

  processes(): ProcessMemory[] {
    return this.watched.map((w) => ({ ...w }));
  }

  /** The largest of every watched server's peak, in KiB, with the server it belongs to. */
  peak(): { kb: number; label: string } | null {
    let best: { kb: number; label: string } | null = null;
    for (const w of this.watched) {
      const kb = Math.max(w.sampledPeakKb, w.highWaterKb);
      if (!best || kb > best.kb) best = { kb, label: w.label };
    }
    return best;
  }
}

/** A process's resident memory now (VmRSS) and at its peak (VmHWM), in kB; null once it is gone. */
export function readStatus(pid: number): { rssKb: number; hwmKb: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  // A zombie has no memory lines: it is gone.
  if (!/^VmRSS:/m.test(text)) return null;
  return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
}

/** The first child process of `parent`, from /proc/<pid>/stat (its fourth field is the parent's pid). */
function childOf(parent: number): number | null {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return null; // not Linux: row 6 then says nothing could be sampled
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The command name is in parentheses and may hold spaces: the fields after it are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === parent) return Number(name);
  }
  return null;
}
