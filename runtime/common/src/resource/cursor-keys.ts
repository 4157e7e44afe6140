// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { CursorCodec } from "../http/cursor.js";
import type { ListQuery } from "../http/list-query.js";
import { cursorValue, fromCursorValue, type ColumnKind } from "../data/column-codec.js";
import { emptyFieldErrors, ValidationFailed } from "../base/errors.js";
import { ownValue } from "../base/records.js";

/*
 * A cursor holds the values of a row's order keys (column-codec.ts cursorValue): sealed from the
 * last row of a page, opened back into the columns' values where the next page starts.
 */

type Kinds = Readonly<Record<string, ColumnKind>>;

/** The order keys of `row` as a cursor holds them. */
export function cursorKeys(kinds: Kinds, orderBy: ListQuery["orderBy"], row: object): unknown[] {
  return orderBy.flatMap((entry) =>
    Object.keys(entry).map((column) => cursorValue(kinds[column]!, ownValue(row, column))),
  );
}

/** A cursor's values as the order keys' column values; 422 when one is not (the spec changed since). */
export function cursorColumns(
  kinds: Kinds,
  orderBy: ListQuery["orderBy"],
  values: readonly unknown[],
): unknown[] {
  const columns = orderBy.flatMap((entry) => Object.keys(entry));
  const decoded = columns.map((column, index) => {
    const kind = kinds[column];
    return kind === undefined ? undefined : fromCursorValue(kind, values[index]);
  });
  if (decoded.some((value) => value === undefined))
    throw new ValidationFailed({ ...emptyFieldErrors(), cursor: ["The cursor is invalid."] });
  return decoded;
}

/** An order turned around: a backwards cursor page reads forwards in it, then turns its rows back. */
export function reversedOrder(orderBy: ListQuery["orderBy"]): ListQuery["orderBy"] {
  return orderBy.map((entry): Record<string, "asc" | "desc"> =>
    Object.fromEntries(
      Object.entries(entry).map(([column, direction]) => [
        column,
        direction === "asc" ? "desc" : "asc",
      ]),
    ),
  );
}

/**
 * The cursors of the pages beside a cursor page: reading forwards, rows follow when the page
 * overflowed and precede unless it is the first page; reading backwards, rows follow (the page
 * read from) and precede when it overflowed. Each sealed from its edge row's order keys.
 */
export function pageCursors<Row>(
  query: ListQuery & { cursor: NonNullable<ListQuery["cursor"]> },
  rows: readonly Row[],
  more: boolean,
  cursors: Pick<CursorCodec, "seal">,
  keysOf: (row: Row) => unknown[],
): { next: string | null; prev: string | null } {
  const { position, binding } = query.cursor;
  const seal = (direction: "next" | "prev", row: Row | undefined) =>
    row === undefined ? null : cursors.seal({ direction, values: keysOf(row) }, binding);
  const forwards = position?.direction !== "prev";
  const follow = forwards ? more : true;
  const precede = forwards ? position !== null : more;
  return {
    next: follow ? seal("next", rows.at(-1)) : null,
    prev: precede ? seal("prev", rows[0]) : null,
  };
}
