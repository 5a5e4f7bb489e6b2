import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Profiles the server from its start until it exits, into PROF_DIR. */
export const PROFILE_PRELOAD = `import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 200 });
session.post('Profiler.start');
process.on('exit', () => {
  session.post('Profiler.stop', (error, result) => {
    if (!error) writeFileSync(process.env.PROF_DIR + '/server-' + process.pid + '.cpuprofile', JSON.stringify(result.profile));
  });
});
`;

/** Samples what the server allocates (garbage included) from its start until it exits, into PROF_DIR. */
export const HEAP_PRELOAD = `import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
session.post('HeapProfiler.enable');
session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
process.on('exit', () => {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) writeFileSync(process.env.PROF_DIR + '/server-' + process.pid + '.heapprofile', JSON.stringify(result.profile));
  });
});
`;

/**
 * The environment that makes a server profile itself into `dir` (its CPU, or with `heap` what it
 * allocates): NODE_OPTIONS refuses --cpu-prof, so a preload starts the inspector's profiler instead.
 * Nothing when no directory is given.
 */
export function profilingEnv(dir: string | undefined, heap: boolean): Record<string, string> {
  if (dir === undefined) return {};
  const preload = join(dir, 'profile.mjs');
  writeFileSync(preload, heap ? HEAP_PRELOAD : PROFILE_PRELOAD);
  return { NODE_OPTIONS: `--import=${preload}`, PROF_DIR: dir };
}
