// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/**
 * A column's value as JSON, written by PostgreSQL byte for byte as the service writes a value of
 * its kind (data/column-codec.ts outputOf, then JSON.stringify): a decimal as its text with `scale`
 * places, a date as `YYYY-MM-DD`, a datetime as the UTC instant with milliseconds (toISOString),
 * anything else as the JSON of the value. NULL stays NULL. A json column is not written here
 * (undefined): PostgreSQL formats its text its own way (spaces, the order of keys). A write and its
 * event in one statement build the event's changes from these (SqlDialect.writesWithEvent).
 */
export function outputJson(kind: string, column: string, scale: number): string | undefined {
  switch (kind) {
    case "decimal":
      return `to_json(round(${column}, ${Math.trunc(scale)})::text)`;
    case "date":
      return `to_json(to_char(${column}, 'YYYY-MM-DD'))`;
    case "datetime":
      return `to_json(to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
    case "json":
      return undefined;
    default:
      return `to_json(${column})`;
  }
}
