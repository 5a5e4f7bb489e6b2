/** Row 6: the largest resident memory of any server process while rows 3 to 5 loaded it. */
import type { MemoryWatch } from '../lib/memory';
import { failedRow, makeRow, type Budget, type Row } from '../lib/report';

/** 1 MB = 1,000,000 bytes: the stricter reading of the budget (200 MB is 190.7 MiB). */
const MB = 1_000_000;
const BUDGET: Budget = { on: 'figure', op: '<=', limit: 200 };
const MEASURE = 'peak resident memory of the server, rows 3-5';

export function memoryRows(watch: MemoryWatch, command: string): Row[] {
  const peak = watch.peak();
  const processes = watch.processes();
  if (!peak || processes.every((p) => p.samples === 0))
    return [failedRow(6, MEASURE, BUDGET, 'no server process could be sampled (is /proc there?)')];
  const launcher = Math.max(...processes.map((p) => p.launcherPeakKb));
  return [
    makeRow({
      row: 6,
      measure: MEASURE,
      figure: { value: (peak.kb * 1024) / MB, unit: 'MB' },
      budget: BUDGET,
      notes: [
        `${command}; largest in: ${peak.label}`,
        `VmRSS sampled every 100 ms and the kernel's VmHWM, of ${processes.length} server processes; 1 MB = 1,000,000 bytes`,
        ...(launcher > 0
          ? [
              `the node process serving, not tsx's launcher beside it (${((launcher * 1024) / MB).toFixed(1)} MB more)`,
            ]
          : []),
      ],
    }),
  ];
}
