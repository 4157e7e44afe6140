import type { ServerSet } from "./types.js";

/** A field's or relation's `set:` in one form: when, and who may send a value of their own. */
export function setByServer(entry: { set?: ServerSet }): { on: "create" | "write"; bypass: string[] } | undefined {
  if (entry.set === undefined) return undefined;
  return typeof entry.set === "string" ? { on: entry.set, bypass: [] } : { on: entry.set.on, bypass: entry.set.bypass ?? [] };
}
