import { Worker } from 'node:worker_threads';
import type { StatementText } from './reusable-query';

/** Runs a batch of statements in one transaction; resolves with the rows each one changed. */
export type BatchWrite = (statements: readonly StatementText[]) => Promise<number[]>;

/**
 * A batch whose guarded statements (inserts the rollups counted as new without reading first) must
 * each change one row: the rows each statement changed, or, when a guarded one changed none, the
 * batch undone and the places of those statements (decision 0036).
 */
export type GuardedBatchWrite = (
  statements: readonly StatementText[],
  guards: readonly number[],
) => Promise<GuardedOutcome>;
export type GuardedOutcome = { changes: number[] } | { unchanged: number[] };

type Answer =
  { id: number; changes: number[] } | { id: number; unchanged: number[] } | { id: number; error: string };

/**
 * The client side of the SQLite write thread (sqlite-write-worker.mjs). The thread starts with the
 * first batch and again after a crash; a batch in flight when it dies is refused, never acknowledged.
 */
export function sqliteWriteThread(file: string, pragmas: readonly string[]) {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<
    number,
    { resolve: (outcome: GuardedOutcome) => void; reject: (error: Error) => void }
  >();

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  function start(): Worker {
    const started = new Worker(new URL('./sqlite-write-worker.mjs', import.meta.url), {
      workerData: { file, pragmas: [...pragmas] },
    });
    started.on('message', (answer: Answer) => {
      const waiting = pending.get(answer.id);
      if (!waiting) return;
      pending.delete(answer.id);
      if ('error' in answer) waiting.reject(new Error(answer.error));
      else
        waiting.resolve(
          'unchanged' in answer ? { unchanged: answer.unchanged } : { changes: answer.changes },
        );
    });
    started.on('error', (error) => {
      failAll(error);
    });
    started.on('exit', () => {
      if (worker === started) worker = null;
      failAll(new Error('the SQLite write thread stopped'));
    });
    // An idle write thread does not keep the process alive.
    started.unref();
    return started;
  }

  const send = (statements: readonly StatementText[], guards: readonly number[]) =>
    new Promise<GuardedOutcome>((resolve, reject) => {
      worker ??= start();
      const id = nextId++;
      pending.set(id, { resolve, reject });
      // Each distinct SQL text crosses once per batch; a statement names it by its place in `sqls`.
      const sqls: string[] = [];
      const indexOf = new Map<string, number>();
      const steps = statements.map(({ sql, parameters }) => {
        let index = indexOf.get(sql);
        if (index === undefined) {
          index = sqls.push(sql) - 1;
          indexOf.set(sql, index);
        }
        return [index, parameters] as const;
      });
      worker.postMessage(guards.length === 0 ? { id, sqls, steps } : { id, sqls, steps, guards });
    });

  const write: BatchWrite = async (statements) => {
    const outcome = await send(statements, []);
    if ('changes' in outcome) return outcome.changes;
    throw new Error('the SQLite write thread refused a batch without guards');
  };
  const writeGuarded: GuardedBatchWrite = async (statements, guards) => {
    // The write thread checks them once the last one has run.
    for (let i = 1; i < guards.length; i++)
      if ((guards[i] ?? 0) <= (guards[i - 1] ?? 0))
        throw new Error('guarded statements must be given in ascending order');
    return send(statements, guards);
  };

  async function close(): Promise<void> {
    const current = worker;
    worker = null;
    if (!current) return;
    const exited = new Promise<void>((resolve) => {
      current.once('exit', () => {
        resolve();
      });
    });
    current.postMessage('close');
    await exited;
  }

  return { write, writeGuarded, close };
}
