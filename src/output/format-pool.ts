import { once } from "node:events";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { prettierOptions } from "./format-options.js";

export interface FormatJob {
  path: string;
  content: string;
  parser: string;
}

/** What formatting one job gave: the formatted text, or prettier's message when it did not parse. */
export type FormatOutcome = { content: string } | { error: string };

/** A thread's start and its own prettier warm-up are only worth it for a share of this many files or more. */
const minFilesPerWorker = 24;
/** Each thread holds its own prettier and heap; past a few, memory grows faster than time shrinks. */
const maxWorkers = 4;
/**
 * Formatting in one thread already keeps about one and a half cores busy: V8 compiles and collects
 * garbage on background threads. On two cores, two formatting threads took 10% longer than one, for
 * 40% more CPU (see docs/decisions.md), so a thread is started per two cores only.
 */
const coresPerWorker = 2;

/** How many worker threads pay off for this many files on this machine; 0 means format in this thread. */
export function defaultWorkerCount(jobCount: number, cores = availableParallelism()): number {
  const count = Math.min(Math.floor(cores / coresPerWorker), maxWorkers, Math.floor(jobCount / minFilesPerWorker));
  return count >= 2 ? count : 0;
}

/*
 * Evaluated as a CommonJS worker rather than loaded from a file next to this one, so that the same code
 * runs from dist/ and from the TypeScript sources under test. It imports the very prettier module the
 * parent thread resolved, so both format with the same version.
 */
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const prettier = import(workerData.prettierUrl);
parentPort.on("message", async ({ content, parser }) => {
  try {
    const { format } = await prettier;
    parentPort.postMessage({ content: await format(content, { ...workerData.options, parser }) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
`;

/**
 * Formats the jobs on `workerCount` threads. Each thread takes the next job when it is done with one,
 * largest first so that one big file (openapi.json) does not finish last; outcomes come back in job
 * order whatever the timing, so the result is the same as formatting one after another.
 */
export async function formatInWorkers(jobs: FormatJob[], workerCount: number): Promise<FormatOutcome[]> {
  const queue = jobs.map((_, index) => index).sort((left, right) => jobs[right]!.content.length - jobs[left]!.content.length);
  const outcomes = new Array<FormatOutcome>(jobs.length);
  const workerData = { prettierUrl: import.meta.resolve("prettier"), options: prettierOptions };
  const workers = Array.from({ length: Math.min(workerCount, jobs.length) }, () => new Worker(workerSource, { eval: true, workerData }));
  const drain = async (worker: Worker) => {
    for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
      const { content, parser } = jobs[index]!;
      worker.postMessage({ content, parser });
      // once() rejects when the thread fails (out of memory, crash), which fails the whole run.
      [outcomes[index]] = (await once(worker, "message")) as [FormatOutcome];
    }
  };
  try {
    await Promise.all(workers.map(drain));
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return outcomes;
}
