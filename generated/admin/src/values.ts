// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AdminField } from "./manifest.js";

/*
 * Between a form's inputs (text, always) and the JSON a payload sends; and a value as a page shows
 * it. The rules themselves are the server's: a value that is not what the field takes is sent as
 * typed, and the 422 says why under the field.
 */

/** An input's text for a value (datetime-local shows UTC: the API's instants are UTC). */
export function inputText(field: Pick<AdminField, "type">, value: unknown): string {
  if (value === null || value === undefined) return "";
  if (field.type === "datetime" && typeof value === "string") return value.slice(0, 16);
  if (field.type === "json") return JSON.stringify(value, null, 2);
  if (field.type === "belongsTo" && typeof value === "object") return hashOf(value) ?? "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A form-local error: only JSON that does not parse (the API would take the text as a string). */
export class InputError extends Error {}

/**
 * The payload value of an input's text. Empty: left out of a create (the API applies the default,
 * or says the field is required), cleared on an update (null where the field takes it).
 */
export function payloadValue(
  field: Pick<AdminField, "type" | "nullable" | "label">,
  text: string,
  action: "create" | "update",
): unknown {
  if (text === "") return action === "create" ? undefined : field.nullable ? null : "";
  switch (field.type) {
    case "integer": {
      const number = Number(text);
      return text.trim() !== "" && Number.isFinite(number) ? number : text;
    }
    case "boolean":
      return text === "true" ? true : text === "false" ? false : text;
    case "datetime":
      return /^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(text) ? `${text}:00.000Z` : text;
    case "json":
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new InputError(`The ${field.label.toLowerCase()} field must be valid JSON.`);
      }
    default:
      return text;
  }
}

/** A related record's public id, as a belongsTo outputs it (a hash, or the record when loaded). */
export function hashOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const id = record.hash ?? record.public_id;
    return typeof id === "string" ? id : undefined;
  }
  return undefined;
}

/** How a record is named: its first title field with a value, else its public id. */
export function titleOf(record: unknown, titles: readonly string[]): string {
  if (typeof record !== "object" || record === null)
    return typeof record === "string" ? record : "";
  const values = record as Record<string, unknown>;
  for (const key of titles) {
    const value = values[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return hashOf(record) ?? "";
}

/** A value as a cell or a record page shows it. */
export function shown(field: Pick<AdminField, "type">, value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (field.type === "boolean")
    return value === true ? "Yes" : value === false ? "No" : String(value);
  if (field.type === "datetime" && typeof value === "string")
    return `${value.slice(0, 16).replace("T", " ")} UTC`;
  if (field.type === "file" && typeof value === "object") {
    const file = value as { name?: string; size?: number };
    return `${file.name ?? "file"} (${sizeText(file.size ?? 0)})`;
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
