// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Readable } from "node:stream";
import { ConcurrencyGate, GateFull } from "../base/concurrency-gate.js";
import { ServiceBusy } from "../base/errors.js";
import type { Sql } from "../db/sql.js";
import { fileMessage, fileProblems, servedInline, type FileRules } from "./file-rules.js";
import { newStorageKey, newUploadToken } from "./keys.js";
import { sniffType, type SniffedType } from "./sniff.js";
import type { UrlSigner } from "./signed-urls.js";
import { Meter, UploadCut, type FileStorage, type ObjectHead } from "./storage.js";
import {
  deleteUpload,
  insertUpload,
  markRemoving,
  moveUpload,
  uploadByToken,
  type StoredFile,
  type Upload,
} from "./uploads.js";

/** hashapi.yaml's `storage:` as the service reads it at start-up (files/storage-settings.ts). */
export interface FileSettings {
  /** How long a record's file URL works, in seconds (`urlTtlSeconds`). */
  readonly urlTtlSeconds: number;
  /** How long an asked-for upload waits for its bytes, in seconds. */
  readonly uploadTtlSeconds: number;
  /** Uploads never attached are removed after this many hours (`orphanHours`). */
  readonly orphanHours: number;
  /** Uploads streaming at once in this process (`concurrentUploads`): 503 beyond. */
  readonly concurrentUploads: number;
  /** A sender that sends no byte for this long is cut. */
  readonly idleSeconds: number;
}

/** Where an upload goes: a file field of a resource, for a caller. */
export interface UploadTarget {
  readonly prefix: string;
  readonly field: string;
  readonly rules: FileRules;
  readonly uploaderId: number | null;
  readonly tenantId: number | null;
}

/** A received file: its token and size, or the messages of the rules it breaks (nothing is kept then). */
export type Received =
  | { readonly token: string; readonly size: number; readonly type: string }
  | { readonly problems: string[] };

/** The files of one service: their storage, their table, and the bounds on receiving them. */
export class Files {
  private readonly gate: ConcurrencyGate;
  /** Each resource's file fields and their rules, by public id prefix (the registry adds them). */
  private readonly rules = new Map<string, Readonly<Record<string, FileRules>>>();
  /** Each resource's table and file columns, by prefix: what the release and the sweep read. */
  readonly columns = new Map<
    string,
    { readonly table: string; readonly columns: readonly string[] }
  >();

  constructor(
    readonly storage: FileStorage,
    readonly sql: Sql,
    readonly settings: FileSettings,
    /** What signs the `local` driver's URLs (upload PUTs and downloads). */
    readonly signer: UrlSigner,
  ) {
    // Uploads beyond the bound are refused at once: a queue would hold their connections open.
    this.gate = new ConcurrencyGate(settings.concurrentUploads, 0);
  }

  /** A resource's file fields: their rules, and the table whose columns hold them. */
  addRules(prefix: string, table: string, rules: Readonly<Record<string, FileRules>>): void {
    this.rules.set(prefix, rules);
    this.columns.set(prefix, { table, columns: Object.keys(rules) });
  }

  /** The rules of a file field, by its resource's prefix; undefined for one this build has not. */
  rulesOf(prefix: string, field: string): FileRules | undefined {
    const fields = this.rules.get(prefix);
    return fields && Object.hasOwn(fields, field) ? fields[field] : undefined;
  }

  /** Runs one upload's receiving under the per-process bound: 503 with Retry-After beyond it. */
  async bounded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.gate.run(work);
    } catch (error) {
      if (error instanceof GateFull)
        throw new ServiceBusy("Too many uploads at once: try again shortly.", 2);
      throw error;
    }
  }

  /**
   * Streams a file into storage: its row first (a process killed now leaves an orphan the schedule
   * removes), then its bytes, then its type read from them and its rules decided. A file its rules
   * refuse, or one cut short, leaves nothing behind.
   */
  async receive(
    target: UploadTarget,
    name: string,
    source: Readable,
    /** The bytes the caller may still upload (rateLimit.uploadMegabytes): past them, UploadCut "quota". */
    allowance = Infinity,
  ): Promise<Received> {
    const token = newUploadToken();
    const key = newStorageKey();
    const expiresAt = new Date(Date.now() + this.settings.uploadTtlSeconds * 1000);
    const cleanName = fileName(name);
    const id = await insertUpload(this.sql, {
      ...this.owner(target),
      token,
      key,
      name: cleanName,
      size: 0,
      type: "application/octet-stream",
      state: "receiving",
      expiresAt,
    });
    const upload = { id, key, name: cleanName, token };
    try {
      return await this.store(
        upload,
        target.rules,
        source,
        Math.min(target.rules.maxBytes, allowance),
      );
    } catch (error) {
      // Cut below the field's max: past what the caller may still upload.
      if (error instanceof UploadCut && error.reason === "too-large") throw new UploadCut("quota");
      throw error;
    }
  }

  /**
   * Streams an upload's bytes to storage, at most `cap`, then types and checks them (checked). A
   * file past the field's max gets its message; one past a lower cap (the caller's allowance, a
   * declared size) is removed and cut (UploadCut "too-large"), for the caller to say why.
   */
  async store(
    upload: Pick<Upload, "id" | "key" | "name" | "token">,
    rules: FileRules,
    source: Readable,
    cap = rules.maxBytes,
  ): Promise<Received> {
    const meter = new Meter(cap, this.settings.idleSeconds * 1000);
    // Read once: a bucket is told the type (describe) before the rules are decided on it.
    let sniffed: SniffedType | undefined;
    let head: ObjectHead;
    try {
      head = await this.storage.write(upload.key, source, meter, async (stored) => {
        sniffed = await sniffType(stored.head);
        return { name: upload.name, type: sniffed.mime, inline: servedInline(rules, sniffed.mime) };
      });
    } catch (error) {
      await this.forget(upload.id, upload.key);
      if (error instanceof UploadCut && error.reason === "too-large" && cap >= rules.maxBytes)
        return { problems: [fileMessage("max", rules)] };
      throw error;
    }
    return this.checked(upload, rules, head, sniffed);
  }

  /** A two-phase upload's row, before its bytes are PUT; `url` is where they go. */
  async ask(
    target: UploadTarget,
    name: string,
    /** The size its client declared: no more is taken. */
    size?: number,
  ): Promise<{ token: string; url: string; expiresAt: Date }> {
    const token = newUploadToken();
    const key = newStorageKey();
    const expiresAt = new Date(Date.now() + this.settings.uploadTtlSeconds * 1000);
    const owner = this.owner(target);
    await insertUpload(this.sql, {
      ...owner,
      token,
      key,
      name: fileName(name),
      size: size ?? 0,
      type: "application/octet-stream",
      state: "pending",
      expiresAt,
    });
    return { token, url: this.storage.uploadUrl(key, token, expiresAt), expiresAt };
  }

  /**
   * A pending upload whose bytes the client PUT straight to the bucket: read back, typed and
   * checked now. Undefined when it is ready (or was already); the rules' messages otherwise.
   */
  async verifyPending(upload: Upload, rules: FileRules): Promise<string[] | undefined> {
    if (!(await moveUpload(this.sql, upload.id, "pending", "receiving")))
      return [fileMessage("uploaded", rules)];
    const head = await this.storage.inspect(upload.key);
    if (head === undefined) {
      await moveUpload(this.sql, upload.id, "receiving", "pending");
      return [fileMessage("uploaded", rules)];
    }
    if (head.size > rules.maxBytes) {
      await this.forget(upload.id, upload.key);
      return [fileMessage("max", rules)];
    }
    // More than its client declared (and was counted for): refused.
    if (upload.size > 0 && head.size > upload.size) {
      await this.forget(upload.id, upload.key);
      return [fileMessage("uploaded", rules)];
    }
    const received = await this.checked(upload, rules, head);
    if ("problems" in received) return received.problems;
    const download = { name: upload.name, type: received.type };
    await this.storage.describe(upload.key, {
      ...download,
      inline: servedInline(rules, received.type),
    });
    return undefined;
  }

  /** Decides a stored file's rules on its bytes: ready, or removed with the messages why. */
  async checked(
    upload: Pick<Upload, "id" | "key" | "name" | "token">,
    rules: FileRules,
    head: ObjectHead,
    /** Its type, when it was read already. */
    known?: SniffedType,
  ): Promise<Received> {
    const sniffed = known ?? (await sniffType(head.head));
    const problems = fileProblems(rules, { name: upload.name, size: head.size, sniffed });
    if (problems.length > 0) {
      await this.forget(upload.id, upload.key);
      return { problems };
    }
    const file = { size: head.size, type: sniffed.mime };
    await moveUpload(this.sql, upload.id, "receiving", "ready", file);
    return { token: upload.token, ...file };
  }

  /** The output of a stored file for a reader who may see it: its URL signed and short-lived. */
  output(file: StoredFile, rules: Pick<FileRules, "image">): Record<string, unknown> {
    const expiresAt = new Date(Date.now() + this.settings.urlTtlSeconds * 1000);
    const download = { name: file.name, type: file.type, inline: servedInline(rules, file.type) };
    return { ...fileMetadata(file), url: this.storage.downloadUrl(file.key, download, expiresAt) };
  }

  /** Removes an upload: its bytes first, then its row (a crash between leaves a row, retried). */
  async forget(id: number, key: string): Promise<void> {
    await this.storage.remove(key);
    await deleteUpload(this.sql, id);
  }

  /** Removes an upload by token unless a write attached it. */
  async forgetUnattached(token: string): Promise<void> {
    const upload = await uploadByToken(this.sql, token);
    if (upload && (await markRemoving(this.sql, upload.id)))
      await this.forget(upload.id, upload.key);
  }

  private owner(target: UploadTarget) {
    const { prefix, field, uploaderId, tenantId } = target;
    return { prefix, field, uploaderId, tenantId };
  }
}

/** What every exit but a response to a reader shows of a file: never its key or a URL. */
export function fileMetadata(file: StoredFile): { name: string; size: number; type: string } {
  return { name: file.name, size: file.size, type: file.type };
}

/** A file name as stored and shown: its last path segment, printable, at most 255 characters. */
export function fileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? "";
  const printable = last
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .normalize("NFC")
    .trim();
  const cut = [...printable].slice(0, 255).join("");
  return cut === "" || cut === "." || cut === ".." ? "file" : cut;
}
