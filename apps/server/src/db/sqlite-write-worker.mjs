// @ts-check
/**
 * The SQLite write thread (decision 0013): runs each batch of statements in one immediate transaction
 * on its own connection, so that the commit's fsync, checkpoints and B-tree work happen off the
 * thread that answers requests. Plain JavaScript: a worker thread loads it without a TypeScript loader.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

/** A batch: each step is a statement, by its SQL's place in `sqls`, and its parameters. */
/** @typedef {{ id: number, sqls: string[], steps: [number, unknown[]][] }} Batch */

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

/** Every statement or none; returns the rows each one changed. */
const runBatch = db.transaction(
  /** @param {Batch} batch */
  ({ sqls, steps }) => {
    const statements = sqls.map(statement);
    return steps.map(([index, parameters]) => {
      const found = statements[index];
      if (found === undefined) throw new Error(`no statement ${String(index)} in the batch`);
      return found.run(parameters).changes;
    });
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
    port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
