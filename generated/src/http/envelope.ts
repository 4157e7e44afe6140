// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Response } from "express";
import type { FieldErrors } from "../base/errors.js";

/**
 * Writes a JSON body straight to Node's response: Express's `res.json` adds a replacer lookup, a
 * charset parse and an ETag branch the API never uses, on every request. A HEAD request gets the
 * headers only (Node drops the body).
 */
function sendJson(res: Response, status: number, body: object): void {
  const text = JSON.stringify(body);
  // One writeHead instead of a status and two setHeader calls: each of those validates on its own.
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** hashapi's docs/api-contract.md §1: one envelope for every response; `status` always equals the HTTP status. */
export function sendData(res: Response, data: unknown, status = 200): void {
  sendJson(res, status, { type: "success", status, data });
}

/**
 * Marks an answer that must never be cached by a browser or a proxy: a token, or anything a route of
 * the account flows answers (a request that carried a token must not be cached either).
 */
export function noStore(res: Response): void {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Pragma", "no-cache");
}

export function sendMessage(res: Response, message: string, status = 200): void {
  sendJson(res, status, { type: "success", status, message });
}

export function sendList(res: Response, data: unknown[], links: object, meta: object): void {
  sendJson(res, 200, { type: "success", status: 200, data, links, meta });
}

export function sendError(
  res: Response,
  status: number,
  message: string,
  errors?: FieldErrors,
): void {
  sendJson(
    res,
    status,
    errors ? { type: "error", status, message, errors } : { type: "error", status, message },
  );
}
