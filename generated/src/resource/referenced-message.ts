// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { Conflict } from "../base/errors.js";
import type { HeldBack } from "../data/table/cascade.js";
import type { AnyTable, TableSpec } from "../data/table.js";

/**
 * The 409 of a delete that a restrict relation holds back, naming it: "Resource is referenced by
 * other records: an appointment still points at this patient." (a resource's name, never a record).
 */
export function referencedMessage(root: TableSpec, why: HeldBack | undefined): string {
  const generic = "Resource is referenced by other records.";
  if (why === undefined) return generic;
  const holder = nounOf(why.holder);
  const held =
    why.held === root
      ? `this ${nounOf(root)}`
      : `${articleOf(nounOf(why.held))} ${nounOf(why.held)} its delete would take`;
  return `Resource is referenced by other records: ${articleOf(holder)} ${holder} still points at ${held}.`;
}

/** The 409 of a delete of row `id` the database refused: what holds it back, looked up (if it can be). */
export async function referencedConflict(table: AnyTable, id: number): Promise<Conflict> {
  const why = await table.whatHoldsBack(id).catch(() => undefined);
  return new Conflict(referencedMessage(table.spec, why));
}

const nounOf = (spec: TableSpec) => spec.event.replaceAll("_", " ");
const articleOf = (noun: string) => (/^[aeiou]/.test(noun) ? "an" : "a");
