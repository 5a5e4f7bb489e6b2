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
