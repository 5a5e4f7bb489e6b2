// @ts-check
/**
 * The SQLite write thread (decision 0013): runs each batch of statements in one immediate transaction
 * on its own connection, so that the commit's fsync, checkpoints and B-tree work happen off the
 * thread that answers requests. Plain JavaScript: a worker thread loads it without a TypeScript loader.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

/**
 * A batch: each step is a statement, by its SQL's place in `sqls`, and its parameters. `guards`, in
 * ascending order, are the steps that must each change exactly one row: inserts whose rows the batch's
 * analytics rollups counted as new without reading first (decision 0036).
 */
/** @typedef {{ id: number, sqls: string[], steps: [number, unknown[]][], guards?: number[] }} Batch */

/** Thrown inside the transaction, so that it rolls back, when guarded steps changed nothing. */
class GuardsUnmet extends Error {
  /** @param {number[]} unchanged */
  constructor(unchanged) {
    super('guarded statements changed nothing');
    this.unchanged = unchanged;
  }
}

const port = parentPort;
if (!port) throw new Error('sqlite-write-worker.mjs runs as a worker thread');
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- set by sqlite-write-thread.ts
const { file, pragmas } = /** @type {{ file: string, pragmas: string[] }} */ (workerData);
const db = new SQLite(file);
for (const pragma of pragmas) db.pragma(pragma);

/** Prepared once per distinct SQL; past the limit the cache starts over. */
const MAX_STATEMENTS = 500;
/** @type {Map<string, import('better-sqlite3').Statement>} */
const prepared = new Map();
/** @param {string} sql */
function statement(sql) {
  let found = prepared.get(sql);
  if (found === undefined) {
    if (prepared.size >= MAX_STATEMENTS) prepared.clear();
    found = db.prepare(sql);
    prepared.set(sql, found);
  }
  return found;
}

/**
 * Every statement or none; returns the rows each one changed. Once the last guarded step has run,
 * any guarded step that changed no row undoes the whole batch (GuardsUnmet).
 */
const runBatch = db.transaction(
  /** @param {Batch} batch */
  ({ sqls, steps, guards = [] }) => {
    const statements = sqls.map(statement);
    const lastGuard = guards.at(-1) ?? -1;
    /** @type {number[]} */
    const changes = [];
    for (const [index, parameters] of steps) {
      const found = statements[index];
      if (found === undefined) throw new Error(`no statement ${String(index)} in the batch`);
      changes.push(found.run(parameters).changes);
      if (changes.length - 1 === lastGuard) {
        const unchanged = guards.filter((step) => changes[step] !== 1);
        if (unchanged.length > 0) throw new GuardsUnmet(unchanged);
      }
    }
    return changes;
  },
);

port.on('message', (/** @type {Batch | 'close'} */ message) => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  try {
    port.postMessage({ id: message.id, changes: runBatch.immediate(message) });
  } catch (error) {
    if (error instanceof GuardsUnmet) port.postMessage({ id: message.id, unchanged: error.unchanged });
    else port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
