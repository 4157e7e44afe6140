// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Response } from "express";
import type { FieldErrors } from "../lib/errors.js";

/** api-contract.md §1: one envelope for every response; `status` always equals the HTTP status. */
export function sendData(res: Response, data: unknown, status = 200): void {
  res.status(status).json({ type: "success", status, data });
}

export function sendMessage(res: Response, message: string, status = 200): void {
  res.status(status).json({ type: "success", status, message });
}

export function sendList(res: Response, data: unknown[], links: object, meta: object): void {
  res.status(200).json({ type: "success", status: 200, data, links, meta });
}

export function sendError(
  res: Response,
  status: number,
  message: string,
  errors?: FieldErrors,
): void {
  res
    .status(status)
    .json(errors ? { type: "error", status, message, errors } : { type: "error", status, message });
}
