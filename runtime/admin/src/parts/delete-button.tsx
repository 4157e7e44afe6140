// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useRef, useState } from "preact/hooks";
import type { AdminApi } from "../api.js";
import type { AdminResource } from "../manifest.js";
import { href } from "../routes.js";

/** What deleting a record does, in words: what refuses it, what goes with it, whether it comes back. */
export function consequences(resource: AdminResource): string[] {
  const lines = resource.references.map((reference) =>
    reference.onDelete === "restrict"
      ? `It is refused while ${reference.label.toLowerCase()} refer to it.`
      : reference.onDelete === "cascade"
        ? `Its ${reference.label.toLowerCase()} are deleted with it.`
        : `Its ${reference.label.toLowerCase()} keep no link to it.`,
  );
  lines.push(
    resource.softDelete
      ? "It goes to the trash, where it can be restored."
      : "It cannot be undone.",
  );
  // Two relations of one collection pointing here say the same thing once.
  return [...new Set(lines)];
}

/** Delete, after a confirmation naming what restricts it; a refusal (409) is shown in the dialog. */
export function DeleteButton(props: {
  api: AdminApi;
  resource: AdminResource;
  hash: string;
  title: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [refusal, setRefusal] = useState<string | undefined>();
  const { resource, hash } = props;

  async function confirm() {
    const result = await props.api.resource(resource.collection).delete(hash);
    if (result.error !== undefined) return setRefusal(result.error.message);
    dialog.current?.close();
    location.hash = href({ page: "list", collection: resource.collection, query: "" });
  }

  return (
    <>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setRefusal(undefined);
          dialog.current?.showModal();
        }}
      >
        Delete
      </button>
      <dialog ref={dialog} aria-labelledby="delete-heading" class="confirm">
        <h2 id="delete-heading">
          Delete {resource.singular} {props.title}?
        </h2>
        <ul>
          {consequences(resource).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        {refusal && (
          <p class="error-summary" role="alert">
            {refusal}
          </p>
        )}
        <div class="actions">
          <button type="button" class="danger" onClick={confirm}>
            Delete
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
