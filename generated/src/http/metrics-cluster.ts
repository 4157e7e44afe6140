// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import cluster, { type Worker } from "node:cluster";
import {
  AggregatorRegistry,
  register,
  type MetricObjectWithValues,
  type MetricValue,
} from "prom-client";
import { sendIfConnected } from "../base/ipc.js";

/*
 * /metrics in a cluster: each worker keeps its own figures; the supervisor asks the workers that
 * said they can answer, waits for them at most 2 s, and adds up what came (prom-client's
 * aggregation). A worker still starting, or dying, is left out of that scrape instead of failing
 * it: prom-client's own cluster mode asked every connected worker and failed the whole scrape when
 * one had not set up its listener yet.
 */

const readyMessage = "hashapi:metrics-ready";
const collectMessage = "hashapi:metrics-collect";
const collectedMessage = "hashapi:metrics-collected";
const askMessage = "hashapi:metrics?";
const answerMessage = "hashapi:metrics";
const waitMs = 2000;

type WorkerMetrics = MetricObjectWithValues<MetricValue<string>>[];

interface Message {
  readonly type?: string;
  readonly id?: number;
  readonly metrics?: WorkerMetrics;
  readonly text?: string;
  readonly error?: string;
}

/** In a worker: answers the supervisor's questions for this worker's figures, and says it can. */
export function answerSupervisor(): void {
  process.on("message", (message: Message) => {
    if (message?.type !== collectMessage) return;
    register.getMetricsAsJSON().then(
      (metrics) => sendIfConnected(process, { type: collectedMessage, id: message.id, metrics }),
      () => sendIfConnected(process, { type: collectedMessage, id: message.id }),
    );
  });
  sendIfConnected(process, { type: readyMessage });
}

let asked = 0;

/** In a worker, for METRICS_TOKEN: the whole instance's figures, from its supervisor. */
export function askSupervisor(): Promise<string> {
  const id = (asked += 1);
  return new Promise((resolve, reject) => {
    const listener = (message: Message) => {
      if (message?.type !== answerMessage || message.id !== id) return;
      finish(message.error ? new Error(message.error) : undefined, message.text);
    };
    const timer = setTimeout(() => finish(new Error("the supervisor did not answer in 5 s")), 5000);
    const finish = (error?: Error, text?: string) => {
      clearTimeout(timer);
      process.off("message", listener);
      if (error) reject(error);
      else resolve(text ?? "");
    };
    process.on("message", listener);
    sendIfConnected(process, { type: askMessage, id });
  });
}

/** In the supervisor: the sum of its workers' figures, for METRICS_PORT and for their questions. */
export function clusterMetrics(): () => Promise<string> {
  const ready = new Set<number>();
  const pending = new Map<
    number,
    { waiting: Set<number>; answers: WorkerMetrics[]; done(): void }
  >();
  let rounds = 0;
  const gather = async (): Promise<string> => {
    const id = (rounds += 1);
    const workers = [...ready]
      .map((workerId) => cluster.workers?.[workerId])
      .filter((worker): worker is Worker => worker !== undefined && worker.isConnected());
    const answers: WorkerMetrics[] = [];
    await new Promise<void>((resolve) => {
      const waiting = new Set(workers.map((worker) => worker.id));
      const done = () => {
        clearTimeout(timer);
        pending.delete(id);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      pending.set(id, { waiting, answers, done });
      if (waiting.size === 0) return done();
      for (const worker of workers) sendIfConnected(worker, { type: collectMessage, id });
    });
    return AggregatorRegistry.aggregate(answers).metrics();
  };
  const settle = (id: number | undefined, workerId: number, metrics?: WorkerMetrics) => {
    const round = id === undefined ? undefined : pending.get(id);
    if (!round?.waiting.delete(workerId)) return;
    if (metrics) round.answers.push(metrics);
    if (round.waiting.size === 0) round.done();
  };
  cluster.on("message", (worker, message: Message) => {
    if (message?.type === readyMessage) ready.add(worker.id);
    else if (message?.type === collectedMessage) settle(message.id, worker.id, message.metrics);
    else if (message?.type === askMessage)
      gather().then(
        (text) => sendIfConnected(worker, { type: answerMessage, id: message.id, text }),
        (error: Error) =>
          sendIfConnected(worker, { type: answerMessage, id: message.id, error: error.message }),
      );
  });
  cluster.on("exit", (worker) => {
    ready.delete(worker.id);
    for (const [id] of pending) settle(id, worker.id);
  });
  return gather;
}
