// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import { ValidationFailed } from "../base/errors.js";
import type { Files } from "../files/files.js";
import { isMultipart, readMultipart } from "../files/multipart.js";
import { bodyProblem } from "../http/json-body.js";
import type { Action } from "../http/route-table.js";
import type { FileAttachments } from "./file-attachments.js";

/**
 * A create or update of a resource with file fields, which may come as multipart/form-data: after
 * the token and role checks, its body is read (each file streamed to storage under the
 * per-process bound of concurrent uploads), checked as a JSON body is, and the action runs on it.
 * Whatever the outcome, the files it stored that no write attached are removed at once.
 */
export function readingFiles(attachments: FileAttachments, files: Files, action: Action): Action {
  return async (req: Request, res: Response) => {
    if (!isMultipart(req)) return action(req, res);
    let tokens: readonly string[] = [];
    try {
      const read = await files.bounded(() =>
        readMultipart(
          req,
          attachments.targets(req),
          (target, name, stream) => files.receive(target, name, stream),
          {
            fieldBytes: 100 * 1024,
            idleMs: files.settings.idleSeconds * 1000,
          },
        ).catch((error: unknown) => {
          tokens = (error as { tokens?: readonly string[] }).tokens ?? [];
          throw error;
        }),
      );
      tokens = read.tokens;
      const problem = bodyProblem(read.body);
      if (problem) throw new ValidationFailed({ [problem.field]: [problem.message] });
      req.body = read.body;
      await action(req, res);
    } finally {
      await attachments.forgetUnattached(tokens).catch((error: unknown) => {
        req.log.warn(
          { err: error },
          "an upload no write took could not be removed yet: the orphan schedule will",
        );
      });
    }
  };
}
