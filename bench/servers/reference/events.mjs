// The event a write appends in its own transaction, as the service's outbox writes it (runtime
// data/outbox.ts): the second ceiling of bench/write-ceilings.mjs ("express-ceiling-events")
// writes the same row, so that what a write's event costs the database is in both figures and only
// hashapi's own cost is left between them.
import { toStoredDate } from "../shared/stored-dates.mjs";

export const eventColumns = `"type", "record_hash", "actor_hash", "actor_name", "changes", "origin", "created_at"`;
const recorded = ["name", "cpf", "phone"];

/** `[before, after]` of each recorded value that differs (a create's before is null). */
function changesBetween(before, after) {
  const changes = {};
  for (const key of recorded) {
    const was = before?.[key] ?? null;
    const now = after[key] ?? null;
    if (was !== now) changes[key] = [was, now];
  }
  return changes;
}

/** The event row's values, in the order of eventColumns, its time as the database stores it. */
export function patientEvent(action, before, after, actor) {
  return [`patient.${action}`, after.hash, actor?.hash ?? null, actor?.name ?? null, JSON.stringify(changesBetween(before, after)), null, toStoredDate(new Date())];
}
