import { dialectOf } from "../dialects/index.js";
import type { SchemaEvolution } from "../model/schema-evolution.js";
import type { Provider } from "./prisma-diff.js";
import type { Renames } from "./renames.js";
import { parseSchemaShape, type SchemaShape } from "./schema-shape.js";

/*
 * Stored events follow the schema. An event holds a record's values by the keys the record had
 * when it was written (runtime data/outbox.ts), and every exit shows a reader only the keys
 * the record shows that reader now (runtime resource/exits.ts). So the migration that renames a
 * field renames its key in the resource's stored events, in the same transaction: history stays
 * continuous under the new name, and the old name, free again, can never bring an old value back
 * as a new field's. A renamed resource's events get its new name. A dropped column's key is put
 * out of the way (`phone` becomes `phone#0012_drop_phone`): the values stay in the table for
 * whoever reads it with SQL, and no exit ever matches them again, even if a field of that name
 * comes back.
 */

const eventsModel = /^model HashapiEvent \{/m;

/** The statements that carry this migration's renames and drops into the stored events. */
export function eventKeyStatements(
  previous: string | null,
  fromShape: SchemaShape | null,
  next: SchemaShape,
  renames: Renames,
  evolution: SchemaEvolution,
  provider: Provider,
  migration: string,
): string[] {
  // A project whose outbox does not exist yet has no events to carry.
  if (previous === null || fromShape === null || !eventsModel.test(previous)) return [];
  const statements: string[] = [];
  // A renamed resource: its model was in the last migrated schema and is not in the new one (its
  // table may keep its name, when its collection is set, so this does not wait for a table rename).
  const models = (shape: SchemaShape) => new Set([...shape.values()].map((table) => table.model));
  const [was, is] = [models(parseSchemaShape(previous)), models(next)];
  for (const { from, events } of evolution.tables)
    if (events && was.has(from) && !is.has(from)) statements.push(renameType(events.from, events.to));
  for (const rename of renames.columns) {
    const declared = evolution.columns.find((column) => column.table === rename.table && column.from === rename.from && column.to === rename.to);
    const event = evolution.events[rename.table]?.event;
    if (declared?.eventKey && event) statements.push(moveKey(provider, event, declared.eventKey.from, declared.eventKey.to));
  }
  for (const [table, shape] of next) {
    const current = evolution.events[table];
    const before = fromShape.get(table);
    if (!current || !before) continue;
    for (const column of before.columns.keys()) {
      if (shape.columns.has(column)) continue;
      const keys = column.endsWith("_id") ? [column, column.slice(0, -3)] : [column];
      for (const key of keys)
        if (!current.keys.includes(key)) statements.push(moveKey(provider, current.event, key, `${key}#${migration}`));
    }
  }
  return statements;
}

function text(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** Events of `event` (`appointment.…`), by the type's first characters: LIKE would read `_` as any character. */
function ofEvent(event: string): string {
  return `substr("type", 1, ${event.length + 1}) = ${text(`${event}.`)}`;
}

function renameType(from: string, to: string): string {
  return `UPDATE "hashapi_events" SET "type" = ${text(to)} || substr("type", ${from.length + 1}) WHERE ${ofEvent(from)};`;
}

/** The key `from` of an event's changes (JSON text) renamed `to`, where it is present. */
function moveKey(provider: Provider, event: string, from: string, to: string): string {
  return dialectOf(provider).moveChangesKey(ofEvent(event), from, to);
}
