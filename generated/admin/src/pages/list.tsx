// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useState } from "preact/hooks";
import type { CursorMeta, Page, PageMeta } from "../../../client/src/core.js";
import type { AdminApi, AnyRecord } from "../api.js";
import { useLoad } from "../hooks.js";
import { nextSort, paramsOf, queryOfState, stateOfQuery, type ListState } from "../list-params.js";
import type { AdminField, AdminResource, AdminView } from "../manifest.js";
import { idOf, loadable, Value } from "../parts/cells.js";
import { Filters } from "../parts/filters.js";
import { Pager } from "../parts/pager.js";
import { Failed, Loading } from "../parts/states.js";
import { href } from "../routes.js";

interface ListProps {
  api: AdminApi;
  view: AdminView;
  resource: AdminResource;
  trash: boolean;
  query: string;
}

/**
 * A resource's list (or its trash): the columns the role sees, search, each filter operator, a
 * sort per sortable column, numbered pages or cursors. The address holds the query.
 */
export function ListPage(props: ListProps) {
  const { api, view, resource, trash } = props;
  const state = stateOfQuery(props.query);
  const page = trash ? "trash" : "list";
  const go = (next: ListState) =>
    (location.hash = href({ page, collection: resource.collection, query: queryOfState(next) }));
  const sortBy = (key: string) =>
    go({
      ...state,
      sort: nextSort(state.sort, key),
      page: 1,
      cursor: state.cursor === undefined ? undefined : "",
    });
  const [notice, setNotice] = useState<string | undefined>();
  const routes = api.resource(resource.collection);
  const asked = {
    ...paramsOf(state),
    with: loadable(view, resource),
    ...(trash ? { onlyTrashed: true } : {}),
  };
  const [loaded, reload] = useLoad(() => routes.list(asked), [props.query, trash]);
  async function restore(hash: string) {
    const result = await routes.restore(hash);
    setNotice(result.error === undefined ? `Restored ${hash}.` : result.error.message);
    reload();
  }
  const records = loaded.state === "done" ? (loaded.data as Page<AnyRecord>) : undefined;
  return (
    <>
      <ListHead resource={resource} trash={trash} />
      <Filters key={props.query} resource={resource} state={state} onApply={go} />
      <p role="status" class="notice">
        {notice ?? ""}
      </p>
      {loaded.state === "loading" && <Loading />}
      {loaded.state === "failed" && <Failed error={loaded.error} what="list" />}
      {records && (
        <>
          <RecordsTable
            view={view}
            resource={resource}
            trash={trash}
            sort={state.sort}
            page={records}
            onSort={sortBy}
            onRestore={restore}
          />
          <Pager state={state} meta={records.meta as PageMeta | CursorMeta} onGo={go} />
        </>
      )}
    </>
  );
}

/** The heading, and the links to a new record and to the trash (or back from it). */
function ListHead(props: { resource: AdminResource; trash: boolean }) {
  const { resource, trash } = props;
  const { collection } = resource;
  return (
    <div class="page-head">
      <h1 tabIndex={-1}>{trash ? `${resource.label}: trash` : resource.label}</h1>
      <div class="actions">
        {!trash && resource.actions.store && (
          <a class="button primary" href={href({ page: "new", collection })}>
            New {resource.singular}
          </a>
        )}
        {resource.softDelete && (
          <a class="button" href={href({ page: trash ? "list" : "trash", collection, query: "" })}>
            {trash ? "Back to the list" : "Trash"}
          </a>
        )}
      </div>
    </div>
  );
}

interface TableProps {
  view: AdminView;
  resource: AdminResource;
  trash: boolean;
  sort: string;
  page: Page<AnyRecord>;
  onSort: (key: string) => void;
  onRestore: (hash: string) => void;
}

/** The records of a page: a link each, the role's columns, sortable headers; in the trash, restore. */
function RecordsTable(props: TableProps) {
  const { resource, trash } = props;
  const columns = resource.fields.filter((field) => field.output);
  return (
    <>
      <div class="table-wrap" role="region" aria-label={`${resource.label} table`} tabIndex={0}>
        <table>
          <caption class="visually-hidden">
            {resource.label}
            {describeSort(props.sort)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              {columns.map((field) => (
                <ColumnHead key={field.key} field={field} sort={props.sort} onSort={props.onSort} />
              ))}
              {trash && <th scope="col">Deleted</th>}
              {trash && resource.actions.restore && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {props.page.data.map((record) => (
              <RecordRow
                key={idOf(resource, record)}
                {...props}
                columns={columns}
                record={record}
              />
            ))}
          </tbody>
        </table>
      </div>
      {props.page.data.length === 0 && <p>No {resource.label.toLowerCase()} match.</p>}
    </>
  );
}

/** A column's header: a button that sorts by it where it is sortable, its order announced. */
function ColumnHead(props: { field: AdminField; sort: string; onSort: (key: string) => void }) {
  const { field, sort } = props;
  const order =
    sort === field.key ? "ascending" : sort === `-${field.key}` ? "descending" : undefined;
  if (!field.sortable) return <th scope="col">{field.label}</th>;
  return (
    <th scope="col" aria-sort={order}>
      <button type="button" class="sort" onClick={() => props.onSort(field.key)}>
        {field.label}
        <span aria-hidden="true">
          {order === "ascending" ? " ▲" : order === "descending" ? " ▼" : ""}
        </span>
      </button>
    </th>
  );
}

function RecordRow(props: TableProps & { columns: readonly AdminField[]; record: AnyRecord }) {
  const { resource, record, trash } = props;
  const hash = idOf(resource, record);
  return (
    <tr>
      <td>
        {resource.actions.show ? (
          <a href={href({ page: "record", collection: resource.collection, hash })}>{hash}</a>
        ) : (
          hash
        )}
      </td>
      {props.columns.map((field) => (
        <td key={field.key}>
          <Value view={props.view} field={field} value={record[field.key]} />
        </td>
      ))}
      {trash && <td>{String(record.deleted_at ?? "")}</td>}
      {trash && resource.actions.restore && (
        <td>
          <button
            type="button"
            onClick={() => props.onRestore(hash)}
            aria-label={`Restore ${hash}`}
          >
            Restore
          </button>
        </td>
      )}
    </tr>
  );
}

function describeSort(sort: string): string {
  if (sort === "") return "";
  return sort.startsWith("-")
    ? `, sorted by ${sort.slice(1)} descending`
    : `, sorted by ${sort} ascending`;
}
