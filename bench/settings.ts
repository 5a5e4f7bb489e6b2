/** How long and how large each row runs; `--quick` shortens everything and says so in the rows. */
export interface Settings {
  mode: 'full' | 'quick';
  /** The server as `npm start` runs it (the bundle), or the sources through tsx (`--source`). */
  server: 'bundle' | 'source';
  /** Row 1: page loads of each of the page and the floor (the issue asks for at least 5). */
  paintRuns: number;
  /** Row 2: how long to wait, untouched, after the network went quiet. */
  settleMs: number;
  /** Rows 3 to 5: each figure and its baseline are measured `rounds` times, in turn, `seconds` each. */
  connections: number;
  seconds: number;
  rounds: number;
  warmUpSeconds: number;
  /** Rows 3 and 4: leads in the table, and how many different ones the requests name. */
  baseLeads: number;
  grownLeads: number;
  requestedLeads: number;
  /** Row 5: leads whose visits are played, and the crash run. */
  visitorLeads: number;
  killAfterSeconds: number;
  minAcknowledged: number;
}

export const FULL: Settings = {
  mode: 'full',
  server: 'bundle',
  paintRuns: 9,
  settleMs: 2000,
  connections: 100,
  seconds: 5,
  rounds: 3,
  warmUpSeconds: 3,
  baseLeads: 1000,
  grownLeads: 1_000_000,
  requestedLeads: 10_000,
  visitorLeads: 1000,
  killAfterSeconds: 5,
  minAcknowledged: 2000,
};

export const QUICK: Settings = {
  ...FULL,
  mode: 'quick',
  paintRuns: 5,
  seconds: 3,
  rounds: 1,
  warmUpSeconds: 1,
  grownLeads: 100_000,
  killAfterSeconds: 3,
  minAcknowledged: 500,
};

/** How a figure and its baseline were run, for the rows' notes. */
export function runsText(settings: Pick<Settings, 'rounds' | 'seconds'>): string {
  return settings.rounds === 1
    ? `one ${settings.seconds} s run of each, after a warm-up`
    : `medians of ${settings.rounds} runs of ${settings.seconds} s, in turn with the baseline, after a warm-up`;
}

/** What --quick changed, for the rows' notes. */
export function quickNotes(settings: Settings): { load: string[]; growth: string[] } {
  if (settings.mode === 'full') return { load: [], growth: [] };
  return {
    load: [
      `quick: ${settings.rounds} run of ${settings.seconds} s instead of ${FULL.rounds} of ${FULL.seconds} s`,
    ],
    growth: [
      `quick: ${settings.grownLeads.toLocaleString('en-US')} leads instead of ${FULL.grownLeads.toLocaleString('en-US')}`,
    ],
  };
}
