// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useState } from "preact/hooks";
import type { CursorMeta, HistoryEntry, Page, ResourceTypes } from "../../../client/src/core.js";
import type { AdminApi } from "../api.js";
import { useLoad } from "../hooks.js";
import type { AdminResource } from "../manifest.js";

const text = (value: unknown) =>
  value === null || value === undefined
    ? "—"
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value);

/** A record's events (`audit`), newest first, as the API shows them to this reader, by cursors. */
export function History(props: { api: AdminApi; resource: AdminResource; hash: string }) {
  const [cursor, setCursor] = useState("");
  const [loaded] = useLoad(
    () =>
      props.api.resource(props.resource.collection).history(props.hash, { cursor, perPage: 20 }),
    [props.hash, cursor],
  );
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {loaded.state === "failed" && <p role="alert">{loaded.error.message}</p>}
      {loaded.state === "done" && (
        <>
          <ol class="history">
            {(loaded.data as Page<HistoryEntry<ResourceTypes>>).data.map((entry, index) => (
              <li key={`${entry.at}-${index}`}>
                <p>
                  <strong>{entry.event}</strong> · {entry.at.slice(0, 19).replace("T", " ")} UTC ·{" "}
                  {entry.actor === null ? "a script" : (entry.actor.name ?? "a user")}
                </p>
                <ul>
                  {Object.entries(entry.changes).map(([key, change]) => (
                    <li key={key}>
                      <span class="key">{key}</span>: {text(change?.[0])} → {text(change?.[1])}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
          {(loaded.data.meta as CursorMeta).next_cursor && (
            <button
              type="button"
              onClick={() => setCursor((loaded.data.meta as CursorMeta).next_cursor ?? "")}
            >
              Older events
            </button>
          )}
          {cursor !== "" && (
            <button type="button" onClick={() => setCursor("")}>
              Newest events
            </button>
          )}
        </>
      )}
    </section>
  );
}
