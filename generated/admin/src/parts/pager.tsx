// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { CursorMeta, PageMeta } from "../../../client/src/core.js";
import type { ListState } from "../list-params.js";

const sizes = [15, 50, 100];

/**
 * Numbered pages (with the total: a count per page) or cursors (the same cost at row 100,000 as at
 * row 1, without a total); the reader chooses.
 */
export function Pager(props: {
  state: ListState;
  meta: PageMeta | CursorMeta;
  onGo: (state: ListState) => void;
}) {
  const { state, meta, onGo } = props;
  return (
    <nav class="pager" aria-label="Pages">
      {"next_cursor" in meta ? (
        <>
          <button
            type="button"
            disabled={!meta.prev_cursor}
            onClick={() => onGo({ ...state, cursor: meta.prev_cursor ?? "" })}
          >
            Previous
          </button>
          <button
            type="button"
            disabled={!meta.next_cursor}
            onClick={() => onGo({ ...state, cursor: meta.next_cursor ?? "" })}
          >
            Next
          </button>
        </>
      ) : (
        <PageButtons
          current={meta.current_page}
          last={meta.last_page}
          total={meta.total}
          onPage={(page) => onGo({ ...state, page })}
        />
      )}
      <PagingChoice state={state} perPage={meta.per_page} onGo={onGo} />
    </nav>
  );
}

/** Previous, "page N of M", next. */
export function PageButtons(props: {
  current: number;
  last: number;
  total?: number;
  onPage: (page: number) => void;
}) {
  const { current, last } = props;
  return (
    <>
      <button type="button" disabled={current <= 1} onClick={() => props.onPage(current - 1)}>
        Previous
      </button>
      <span class="count" aria-live="polite">
        Page {current} of {Math.max(last, 1)}
        {props.total !== undefined && ` · ${props.total} in all`}
      </span>
      <button type="button" disabled={current >= last} onClick={() => props.onPage(current + 1)}>
        Next
      </button>
    </>
  );
}

/** Numbered pages or cursors, and how many per page (back to the first page either way). */
function PagingChoice(props: {
  state: ListState;
  perPage: number;
  onGo: (state: ListState) => void;
}) {
  const { state, onGo } = props;
  const cursor = state.cursor === undefined ? undefined : "";
  const value = (event: Event) => (event.currentTarget as HTMLSelectElement).value;
  return (
    <>
      <label>
        <span>Paging</span>
        <select
          value={state.cursor === undefined ? "pages" : "cursor"}
          onChange={(event) =>
            onGo({ ...state, page: 1, cursor: value(event) === "cursor" ? "" : undefined })
          }
        >
          <option value="pages">Numbered pages</option>
          <option value="cursor">Cursors (fast)</option>
        </select>
      </label>
      <label>
        <span>Per page</span>
        <select
          value={String(props.perPage)}
          onChange={(event) => onGo({ ...state, page: 1, cursor, perPage: Number(value(event)) })}
        >
          {[...new Set([...sizes, props.perPage])]
            .sort((a, b) => a - b)
            .map((size) => (
              <option key={size} value={String(size)}>
                {size}
              </option>
            ))}
        </select>
      </label>
    </>
  );
}
