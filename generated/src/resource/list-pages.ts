// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ListQuery } from "../http/list-query.js";
import type { ColumnKind } from "../data/column-codec.js";
import type { FindOptions, OutputRead, StoredRow, Table } from "../data/table.js";
import { cursorColumns, reversedOrder } from "./cursor-keys.js";

/**
 * A page of records and their total. `page`: the rows the query selects before order and paging,
 * with the caller's reach (ResourceService), completed here with the order and the page;
 * `forOutput`: how rows read only for the serializer are read (FindOptions.forOutput).
 */
export async function readPage<Model, Row extends StoredRow>(
  table: Table<Model, Row>,
  query: ListQuery,
  page: FindOptions<Model>,
  forOutput: OutputRead | undefined,
): Promise<{ rows: Row[]; total: number }> {
  // The page's options, set one by one rather than spread (a list builds them on every request;
  // a spread inside a literal is V8's slow path). The count reads only their filtering ones.
  page.listOrder = query.orderBy;
  page.limit = query.perPage;
  page.offset = (query.page - 1) * query.perPage;
  page.relations = query.relations;
  if (forOutput) page.forOutput = forOutput;
  const [rows, total] = await Promise.all([table.findMany(page), table.count(page)]);
  return { rows, total };
}

/** A list query in cursor mode (`?cursor=`). */
export type CursorQuery = ListQuery & { cursor: NonNullable<ListQuery["cursor"]> };

/**
 * A cursor page: up to perPage records from the query's position, in the query's order, and
 * whether more follow in the direction read. No total: counting is what makes deep pages slow,
 * and a cursor page costs the same at row 100,000 as at row 1. `filtering`: the rows the query
 * selects before order and paging (ResourceService), with the caller's reach.
 */
export async function readCursorPage<Model, Row extends StoredRow>(
  table: Table<Model, Row>,
  kinds: Readonly<Record<string, ColumnKind>>,
  query: CursorQuery,
  filtering: FindOptions<Model>,
): Promise<{ rows: Row[]; more: boolean }> {
  const { position } = query.cursor;
  const backwards = position?.direction === "prev";
  // Backwards is forwards in the reversed order, read then turned around.
  const orderBy = backwards ? reversedOrder(query.orderBy) : query.orderBy;
  const after = position ? cursorColumns(kinds, orderBy, position.values) : undefined;
  const rows = await table.findMany({
    ...filtering,
    listOrder: orderBy,
    ...(after ? { after } : {}),
    limit: query.perPage + 1,
    relations: query.relations,
  });
  const more = rows.length > query.perPage;
  const page = rows.slice(0, query.perPage);
  return { rows: backwards ? page.reverse() : page, more };
}
