// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { openConnection, type ReadMethod } from "./connection.js";
import type { SqlRow, SqlValues } from "./sql.js";
import { propertyOf } from "../base/records.js";

/*
 * SQLite's driver is synchronous: while a statement runs, its process answers nothing else, not even
 * /api/health. Most statements take microseconds; the ones that match text (`contains`, `?search=`)
 * read every row the other conditions leave and fold each text, which at 100,000 long texts takes
 * hundreds of milliseconds. Those run here instead, on a connection of their own in a thread of
 * their own (WAL lets it read beside the main connection), so the process keeps answering while
 * they run, and they keep DATABASE_STATEMENT_TIMEOUT_MS there.
 */

const role = "hashapi-text-reader";

interface Request {
  id: number;
  method: ReadMethod;
  text: string;
  values: readonly unknown[];
  /** Epoch ms: the statement's time limit counts from when it was asked for, waiting included. */
  deadline: number | undefined;
}

type Reply =
  | { id: number; rows: SqlRow[] | SqlRow | SqlValues[] | undefined }
  | { id: number; error: { message: string; code?: unknown } };

/** The main thread's side: statements sent to the reader thread, answered in order. */
export class TextReader {
  private worker?: Worker;
  private next = 1;
  private readonly pending = new Map<
    number,
    { resolve(value: never): void; reject(error: Error): void }
  >();

  constructor(
    private readonly file: string,
    private readonly statementTimeoutMs: number,
  ) {}

  /**
   * Whether this build can start the reader thread: compiled JavaScript only (`npm start`, a deploy).
   * Run from TypeScript (`npm run dev` under tsx, a test runner), a worker thread cannot load this
   * file: tsx's loader does not reach it (measured: ERR_UNKNOWN_FILE_EXTENSION), so text statements
   * run on the main connection there, as before, still within DATABASE_STATEMENT_TIMEOUT_MS.
   */
  static available(): boolean {
    return !import.meta.url.endsWith(".ts");
  }

  query<T>(method: ReadMethod, text: string, values: readonly unknown[]): Promise<T> {
    const worker = this.started();
    const id = this.next++;
    // Counted from now: statements queued behind a slow one (a list's page and its count) do not
    // each get the whole limit again once they start.
    const deadline = this.statementTimeoutMs > 0 ? Date.now() + this.statementTimeoutMs : undefined;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: never) => void, reject });
      worker.postMessage({ id, method, text, values, deadline } satisfies Request);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { role, file: this.file, statementTimeoutMs: this.statementTimeoutMs },
    });
    // It must not keep a script (or a stopping server) alive by itself.
    worker.unref();
    worker.on("message", (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (!waiting) return;
      if ("error" in reply)
        waiting.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      else waiting.resolve(reply.rows as never);
    });
    // A thread that died fails what it held; the next statement starts another.
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on("error", failAll);
    worker.on("exit", (code) => failAll(new Error(`the text reader thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** The reader thread: one read-only use of its own connection, one statement at a time. */
function serve(settings: { file: string; statementTimeoutMs: number }): void {
  const connection = openConnection(settings.file, settings.statementTimeoutMs);
  parentPort!.on("message", (request: Request) => {
    let reply: Reply;
    try {
      const { method, text, values, deadline } = request;
      reply = { id: request.id, rows: connection[method](text, values, deadline) };
    } catch (error) {
      const [message, code] = [propertyOf(error, "message"), propertyOf(error, "code")];
      reply = { id: request.id, error: { message: String(message), code } };
    }
    parentPort!.postMessage(reply);
  });
}

if (!isMainThread && propertyOf(workerData, "role") === role)
  serve({
    file: String(propertyOf(workerData, "file")),
    statementTimeoutMs: Number(propertyOf(workerData, "statementTimeoutMs")),
  });
