// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";
import { emptyFieldErrors, ValidationFailed } from "../base/errors.js";
import { propertyOf } from "../base/records.js";
import type { SqlRow } from "../db/sql.js";
import type { StoredRow } from "../data/table.js";
import { fileMessage, type FileRules } from "../files/file-rules.js";
import { keyOf, releaseUpload } from "../files/file-jobs.js";
import type { Files, UploadTarget } from "../files/files.js";
import { isUploadToken } from "../files/keys.js";
import { attachUpload, uploadByToken, uploadIdByKey, type Upload } from "../files/uploads.js";
import type { WriteRules } from "./write-rules.js";

/*
 * A write's files: the uploads a payload names by token (from a multipart part or a two-phase
 * upload), checked to be the caller's, of this field, and ready, then stored in the record's column
 * as what the output needs (key, name, size, type). The write's own transaction attaches each (a
 * conditional UPDATE: two writes naming one upload, one wins and the other is a 422) and enqueues
 * the release of the files it replaced (files/file-jobs.ts), which go once it commits.
 */

export class FileAttachments {
  constructor(
    private readonly files: Files,
    private readonly prefix: string,
    /** Each file field's rules, by payload key. */
    readonly rules: Readonly<Record<string, FileRules>>,
  ) {}

  /** Where a caller's files for each field go. */
  targets(req: Request): Map<string, UploadTarget> {
    const uploaderId = req.user?.id ?? null;
    const tenantId = req.user?.tenant?.id ?? null;
    return new Map(
      Object.entries(this.rules).map(([field, rules]) => [
        field,
        { prefix: this.prefix, field, rules, uploaderId, tenantId },
      ]),
    );
  }

  /** Whether a payload names a file (its write then decides in its transaction). */
  names(payload: object): boolean {
    return Object.keys(this.rules).some((field) => Object.hasOwn(payload, field));
  }

  /**
   * The payload with each token replaced by its file, and the rule that attaches them in the
   * write's transaction; the payload as it is when it names no file.
   */
  async resolve<T extends object>(
    req: Request,
    payload: T,
  ): Promise<{ payload: T; files?: WriteRules["files"] }> {
    if (!this.names(payload)) return { payload };
    const errors = emptyFieldErrors();
    const resolved: Record<string, unknown> = { ...(payload as Record<string, unknown>) };
    const taken: Upload[] = [];
    const fields = Object.keys(this.rules).filter((field) => Object.hasOwn(payload, field));
    for (const field of fields) {
      const token = (payload as Record<string, unknown>)[field];
      if (token === null) continue;
      const found = await this.ready(req, field, token);
      if (typeof found === "string") errors[field] = [found];
      else if (Array.isArray(found)) errors[field] = found;
      else {
        taken.push(found);
        resolved[field] = { key: found.key, name: found.name, size: found.size, type: found.type };
      }
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    return { payload: resolved as T, files: this.attaching(fields, taken) };
  }

  /** The caller's upload `token` names for `field`, ready (a pending one checked now), or why not. */
  private async ready(
    req: Request,
    field: string,
    token: unknown,
  ): Promise<Upload | string | string[]> {
    const rules = this.rules[field]!;
    const failed = fileMessage("uploaded", rules);
    if (!isUploadToken(token)) return fileMessage("file", rules);
    const upload = await uploadByToken(this.files.sql, token);
    const mine =
      upload !== undefined &&
      upload.uploaderId === (req.user?.id ?? null) &&
      upload.tenantId === (req.user?.tenant?.id ?? null) &&
      upload.prefix === this.prefix &&
      upload.field === field;
    if (!mine) return failed;
    if (upload.state === "pending") {
      const problems = await this.files.verifyPending(upload, rules);
      if (problems) return problems;
      return (await uploadByToken(this.files.sql, token)) ?? failed;
    }
    return upload.state === "ready" ? upload : failed;
  }

  /** The rule that attaches a write's uploads and releases the files it replaced, in its transaction. */
  private attaching(fields: readonly string[], taken: readonly Upload[]): WriteRules["files"] {
    return async (tx, written: StoredRow, before: SqlRow | null) => {
      for (const upload of taken)
        if (!(await attachUpload(tx, upload, written.id)))
          throw new ValidationFailed({
            [upload.field]: [fileMessage("uploaded", this.rules[upload.field]!)],
          });
      if (before === null) return;
      for (const field of fields) {
        const was = keyOf(before[field]);
        if (was === undefined || was === keyOf(propertyOf(written, field))) continue;
        const id = await uploadIdByKey(tx, was);
        if (id !== undefined) await releaseUpload(tx, id);
      }
    };
  }

  /** Removes the uploads a multipart request stored that no write attached (refused, failed). */
  async forgetUnattached(tokens: readonly string[]): Promise<void> {
    for (const token of tokens) await this.files.forgetUnattached(token);
  }
}
