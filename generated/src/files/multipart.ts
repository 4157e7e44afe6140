// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { BadRequest, emptyFieldErrors, PayloadTooLarge, ValidationFailed } from "../base/errors.js";
import type { Received, UploadTarget } from "./files.js";
import { UploadCut } from "./storage.js";
import { loadModule } from "./optional-modules.js";

/** The parts of busboy this module uses. */
interface Parser extends NodeJS.WritableStream {
  on(
    event: "field",
    listener: (name: string, value: string, info: { valueTruncated: boolean }) => void,
  ): this;
  on(
    event: "file",
    listener: (name: string, stream: Readable, info: { filename?: string }) => void,
  ): this;
  on(event: "partsLimit" | "filesLimit" | "fieldsLimit" | "close", listener: () => void): this;
  on(event: "error", listener: (error: unknown) => void): this;
}
type Busboy = (options: { headers: IncomingHttpHeaders; limits: Record<string, number> }) => Parser;

/*
 * A multipart/form-data create or update: its fields in a `payload` part (JSON) or as text parts
 * (each a string), its files as parts named by their fields. Each file streams straight to storage
 * as it arrives (files.ts), one at a time; its part becomes the upload's token in the payload, so
 * the write then attaches it as it attaches a two-phase upload. Every count and size is bounded
 * before a byte is read: parts, fields, a field's size, files (one per file field), a file's size.
 */

export interface MultipartLimits {
  /** The JSON `payload` part and each text part, in bytes. */
  readonly fieldBytes: number;
  /** A sender idle this long (no byte at all) is cut. */
  readonly idleMs: number;
}

export interface MultipartBody {
  readonly body: Record<string, unknown>;
  /** The uploads its files became: removed by the caller when the write does not take them. */
  readonly tokens: readonly string[];
}

type Receive = (target: UploadTarget, name: string, stream: Readable) => Promise<Received>;

/** Whether a request's body is multipart/form-data. */
export function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data\s*;/i.test(req.headers["content-type"] ?? "");
}

/** Reads a multipart body: its payload, with each file part stored and named by its token. */
export async function readMultipart(
  req: IncomingMessage,
  targets: ReadonlyMap<string, UploadTarget>,
  receive: Receive,
  limits: MultipartLimits,
): Promise<MultipartBody> {
  const { default: busboy } = await loadModule<{ default: Busboy }>("busboy");
  return new Promise((resolve, reject) => {
    const state = new PartsRead(targets, receive);
    let parser: Parser;
    try {
      parser = busboy({ headers: req.headers, limits: parserLimits(targets, limits) });
    } catch {
      return reject(new BadRequest("Malformed multipart body."));
    }
    const cut = () => req.destroy(new UploadCut("slow"));
    req.socket.setTimeout(limits.idleMs, cut);
    let finished = false;
    const done = (error?: unknown) => {
      if (finished) return;
      finished = true;
      req.socket.setTimeout(0);
      req.socket.off("timeout", cut);
      if (error === undefined) return state.settled().then(resolve, reject);
      req.unpipe(parser);
      req.resume();
      state
        .settled()
        .then(
          (read) => reject(Object.assign(asRequestError(error), { tokens: read.tokens })),
          reject,
        );
    };
    parser.on("field", (name, value, info) => state.field(name, value, info.valueTruncated));
    parser.on("file", (name, stream, info) => state.file(name, stream, info.filename ?? ""));
    parser.on("partsLimit", () => done(new BadRequest("Too many parts in the multipart body.")));
    parser.on("filesLimit", () => state.tooManyFiles());
    parser.on("fieldsLimit", () => done(new BadRequest("Too many fields in the multipart body.")));
    parser.on("error", (error) => done(error));
    parser.on("close", () => done());
    req.on("error", (error) => done(error));
    // Past every file at its largest and the fields, a body is refused (413) and its connection cut.
    const largest = [...targets.values()].reduce((sum, target) => sum + target.rules.maxBytes, 0);
    onPast(req, largest + 100 * limits.fieldBytes + 64 * 1024, () => {
      done(new PayloadTooLarge());
      req.destroy();
    });
    req.pipe(parser);
  });
}

/** What busboy refuses past: counts of parts, fields and files, a field's and a file's size. */
function parserLimits(targets: ReadonlyMap<string, UploadTarget>, limits: MultipartLimits) {
  const maxFile = Math.max(...[...targets.values()].map((target) => target.rules.maxBytes), 0);
  return {
    fieldSize: limits.fieldBytes,
    fields: 100,
    files: targets.size,
    parts: 100 + targets.size,
    headerPairs: 20,
    fileSize: maxFile + 1,
  };
}

/** Calls `past` once a request has sent more than `limit` bytes. */
function onPast(req: IncomingMessage, limit: number, past: () => void): void {
  let read = 0;
  req.on("data", (chunk: Buffer) => {
    read += chunk.length;
    if (read > limit) past();
  });
}

/** What a multipart body's error is answered as: a cut sender's, a malformed body's. */
function asRequestError(error: unknown): Error {
  if (error instanceof BadRequest || error instanceof ValidationFailed) return error;
  if (error instanceof PayloadTooLarge) return error;
  if (error instanceof UploadCut && error.reason === "quota") return error;
  if (error instanceof UploadCut && error.reason === "slow")
    return new BadRequest("The upload stalled and was cut.");
  return new BadRequest("Malformed multipart body.");
}

/** The parts read so far: the payload's values, the files stored, the problems met. */
class PartsRead {
  private readonly body: Record<string, unknown> = {};
  private readonly problems = emptyFieldErrors();
  private readonly tokens: string[] = [];
  private readonly seen = new Set<string>();
  private files: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly targets: ReadonlyMap<string, UploadTarget>,
    private readonly receive: Receive,
  ) {}

  field(name: string, value: string, truncated: boolean): void {
    if (truncated) return this.problem(name, `The ${label(name)} field is too large.`);
    if (name !== "payload") return this.value(name, value);
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return this.problem("payload", "The payload field must be valid JSON.");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      return this.problem("payload", "The payload field must be a JSON object.");
    for (const [key, item] of Object.entries(parsed)) this.value(key, item);
  }

  file(name: string, stream: Readable, filename: string): void {
    const target = this.targets.get(name);
    if (target === undefined || this.seen.has(name)) {
      stream.resume();
      return this.problem(
        name,
        target
          ? `The ${label(name)} field must be one file.`
          : `The ${label(name)} field is prohibited.`,
      );
    }
    this.seen.add(name);
    // One at a time, in order: the parser waits on each stream, so nothing piles up in memory.
    this.files = this.files.then(async () => {
      if (this.failure !== undefined) return void stream.resume();
      try {
        const received = await this.receive(target, filename, stream);
        if ("token" in received) {
          this.tokens.push(received.token);
          this.value(name, received.token);
        } else this.problems[name] = received.problems;
      } catch (error) {
        this.failure = error;
      }
      // What a refused file had left is read and dropped: the parser goes on to the next part.
      stream.resume();
    });
  }

  tooManyFiles(): void {
    this.problem("body", "Too many files: one per file field.");
  }

  async settled(): Promise<MultipartBody> {
    await this.files;
    const tokens = this.tokens;
    if (this.failure !== undefined) throw Object.assign(asRequestError(this.failure), { tokens });
    if (Object.keys(this.problems).length > 0)
      throw Object.assign(new ValidationFailed(this.problems), { tokens });
    return { body: this.body, tokens };
  }

  private value(name: string, value: unknown): void {
    if (name === "__proto__" || name === "constructor" || name === "prototype")
      return this.problem(name, `The ${label(name)} field is prohibited.`);
    if (Object.hasOwn(this.body, name))
      return this.problem(name, `The ${label(name)} field is given twice.`);
    this.body[name] = value;
  }

  private problem(name: string, message: string): void {
    (this.problems[name] ??= []).push(message);
  }
}

function label(name: string): string {
  return name.replaceAll("_", " ").trim();
}
