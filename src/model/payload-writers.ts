import type { DeclarationModel } from "./types.js";

/**
 * The payload keys only some roles may send, with those roles (none: no role may): `writableBy`
 * fields, what the server sets (`set:`) and a direct owner's belongsTo, which only their bypass
 * roles may name. The runtime decides the same from the same declaration (its field-access.ts
 * payloadWriters); openapi.json's `x-writable-by` and the typed client's payloads are written from this.
 */
export function payloadWriters(declaration: Pick<DeclarationModel, "writableBy" | "setByServer" | "owner">): Record<string, string[]> {
  const { writableBy, setByServer, owner } = declaration;
  return {
    ...writableBy,
    ...Object.fromEntries(Object.entries(setByServer ?? {}).map(([key, set]) => [key, set.bypass])),
    ...(owner?.payloadKey ? { [owner.payloadKey]: owner.bypass } : {}),
  };
}
