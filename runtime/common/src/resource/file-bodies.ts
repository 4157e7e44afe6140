// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import type { Readable } from "node:stream";
import type { CallerLimits } from "../auth/auth.service.js";
import { TooManyRequests, ValidationFailed } from "../base/errors.js";
import type { Files, Received, UploadTarget } from "../files/files.js";
import { isMultipart, readMultipart } from "../files/multipart.js";
import { UploadCut } from "../files/storage.js";
import { bodyProblem } from "../http/json-body.js";
import type { Action } from "../http/route-table.js";
import type { FileAttachments } from "./file-attachments.js";

/**
 * A create or update of a resource with file fields, which may come as multipart/form-data: after
 * the token and role checks, its body is read (each file streamed to storage under the
 * per-process bound of concurrent uploads, and within the caller's bytes of `rateLimit`), checked
 * as a JSON body is, and the action runs on it. Whatever the outcome, the files it stored that no
 * write attached are removed at once.
 */
export function readingFiles(
  attachments: FileAttachments,
  files: Files,
  limits: CallerLimits | undefined,
  action: Action,
): Action {
  return async (req: Request, res: Response) => {
    if (!isMultipart(req)) return action(req, res);
    let tokens: readonly string[] = [];
    try {
      const receive = receiving(req, files, limits, await limits?.uploadAllowance(req));
      const read = await files.bounded(() =>
        readMultipart(req, attachments.targets(req), receive, {
          fieldBytes: 100 * 1024,
          idleMs: files.settings.idleSeconds * 1000,
        }).catch((error: unknown) => {
          tokens = (error as { tokens?: readonly string[] }).tokens ?? [];
          throw error;
        }),
      );
      tokens = read.tokens;
      const problem = bodyProblem(read.body);
      if (problem) throw new ValidationFailed({ [problem.field]: [problem.message] });
      req.body = read.body;
      await action(req, res);
    } catch (error) {
      if (error instanceof UploadCut && error.reason === "quota")
        throw (await pastAllowance(req, limits)) ?? error;
      throw error;
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

/** How a request's files are received: each within what its caller may still upload, counted once stored. */
function receiving(
  req: Request,
  files: Files,
  limits: CallerLimits | undefined,
  allowance: number | undefined,
) {
  let left = allowance ?? Infinity;
  return async (target: UploadTarget, name: string, stream: Readable): Promise<Received> => {
    const received = await files.receive(target, name, stream, left);
    if ("token" in received) {
      left -= received.size;
      await limits?.uploaded(req, received.size);
    }
    return received;
  };
}

/** The 429 of a caller past its bytes, with the seconds until its window ends. */
async function pastAllowance(req: Request, limits: CallerLimits | undefined) {
  try {
    await limits?.uploadAllowance(req);
  } catch (error) {
    if (error instanceof TooManyRequests) return error;
  }
  return new TooManyRequests(60);
}
