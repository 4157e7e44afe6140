// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import express, { type NextFunction, type Request, type Response } from "express";
import { isStorableText } from "../data/column-codec.js";
import { ValidationFailed } from "../base/errors.js";
import { sendError } from "./envelope.js";
import { propertyOf } from "../base/records.js";

const methodsWithBody = new Set(["POST", "PUT", "PATCH"]);
const forbiddenKeys = new Set(["__proto__", "constructor", "prototype"]);

/** Deeper bodies are refused: no payload needs more, and every later walk of the body stays cheap. */
export const maxBodyDepth = 32;

export interface BodyProblem {
  /** The top-level key under which the problem sits; "body" for the body itself. */
  field: string;
  message: string;
}

function label(field: string): string {
  return field.replaceAll("_", " ").trim();
}

/**
 * The first problem anywhere in a parsed JSON body, found without recursion (a body nested thousands
 * of levels deep must not overflow the stack): a key that could reach a prototype, nesting deeper
 * than {@link maxBodyDepth}, text that cannot be stored, or a number that is not finite (JSON.parse
 * reads `1e309` as Infinity).
 */
export function bodyProblem(body: unknown): BodyProblem | undefined {
  const pending: { value: unknown; depth: number; field: string }[] = [
    { value: body, depth: 0, field: "body" },
  ];
  while (pending.length > 0) {
    const { value, depth, field } = pending.pop()!;
    if (typeof value === "string") {
      if (!isStorableText(value))
        return {
          field,
          message: `The ${label(field)} field must be valid Unicode text without NUL characters.`,
        };
      continue;
    }
    if (typeof value === "number") {
      if (!Number.isFinite(value))
        return { field, message: `The ${label(field)} field must be a finite number.` };
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth >= maxBodyDepth)
      return {
        field,
        message: `The ${label(field)} field must not be nested more than ${maxBodyDepth} levels deep.`,
      };
    const topLevel = depth === 0 && !Array.isArray(value);
    for (const key of Object.keys(value)) {
      const owner = topLevel ? key : field;
      if (forbiddenKeys.has(key))
        return { field: owner, message: `The ${label(owner)} field is prohibited.` };
      if (!isStorableText(key))
        return {
          field: topLevel ? "body" : field,
          message: `The ${label(topLevel ? "body" : field)} field has a key that is not valid Unicode text.`,
        };
      pending.push({
        value: (value as Record<string, unknown>)[key],
        depth: depth + 1,
        field: owner,
      });
    }
  }
  return undefined;
}

/** body-parser's error types, each answered in the envelope with the status it carries. */
const parserMessages: Record<string, string> = {
  "entity.too.large": "Payload too large.",
  "entity.parse.failed": "Malformed JSON body.",
  "charset.unsupported": "Unsupported media type.",
  "encoding.unsupported": "Unsupported media type.",
};

/**
 * JSON bodies only: a body of another type on POST/PUT/PATCH is a 415, malformed JSON (or a body
 * whose Content-Encoding does not decode) a 400, an oversized body a 413, each in the envelope. A
 * request without a body parses as {}. A body with a `__proto__`, `constructor` or `prototype` key
 * anywhere, nesting deeper than {@link maxBodyDepth}, unstorable text or a non-finite number is
 * refused (422) before anything reads it.
 */
export function jsonBody(
  limit: string,
  /** A request whose route reads its body as a stream itself (an upload's bytes, a multipart write). */
  streamed: (req: Request) => boolean = () => false,
) {
  const parse = express.json({ limit, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!methodsWithBody.has(req.method)) return next();
    if (streamed(req)) {
      req.body = {};
      return next();
    }
    const hasBody =
      req.headers["transfer-encoding"] !== undefined ||
      Number(req.headers["content-length"] ?? 0) > 0;
    if (!hasBody) {
      req.body = {};
      return next();
    }
    if (!req.is("application/json") && !req.is("application/*+json")) {
      return sendError(res, 415, "Unsupported media type.");
    }
    parse(req, res, (error?: unknown) => {
      // This callback runs from the request stream, outside Express's error handling: anything
      // thrown here would end the process, so every outcome is passed on explicitly.
      try {
        if (error) return answerParserError(error, res, next);
        const problem = bodyProblem(req.body);
        if (problem === undefined) return next();
        return next(new ValidationFailed({ [problem.field]: [problem.message] }));
      } catch (unexpected) {
        return next(unexpected);
      }
    });
  };
}

function answerParserError(error: unknown, res: Response, next: NextFunction): void {
  const [type, status] = [propertyOf(error, "type"), propertyOf(error, "status")];
  const message = typeof type === "string" ? parserMessages[type] : undefined;
  if (message !== undefined)
    return sendError(res, status === 413 || status === 415 ? status : 400, message);
  // Anything else body-parser reports as the client's fault (a corrupt gzip/deflate/br body, an
  // aborted upload, a length that does not match) is a 400, never a 500.
  if (typeof status === "number" && status >= 400 && status < 500)
    return sendError(res, 400, "Malformed request body.");
  next(error);
}
