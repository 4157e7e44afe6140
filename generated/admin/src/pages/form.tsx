// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useState } from "preact/hooks";
import { useLoad } from "../hooks.js";
import type { AdminApi, AnyRecord } from "../api.js";
import type { AdminField, AdminResource, AdminView } from "../manifest.js";
import { loadable } from "../parts/cells.js";
import { FieldInput } from "../parts/field-input.js";
import { ErrorSummary } from "../parts/inputs.js";
import { Failed, Loading } from "../parts/states.js";
import { href } from "../routes.js";
import { hashOf, inputText, InputError, payloadValue, shown, titleOf } from "../values.js";

type Errors = Partial<Record<string, readonly string[]>>;

/** A create (no hash) or edit form: the role's writable fields as inputs, the others read-only. */
export function FormPage(props: {
  api: AdminApi;
  view: AdminView;
  resource: AdminResource;
  hash?: string;
}) {
  const { api, view, resource, hash } = props;
  const [loaded] = useLoad(
    () =>
      hash === undefined
        ? Promise.resolve({ data: undefined })
        : api.resource(resource.collection).get(hash, { with: loadable(view, resource) }),
    [hash],
  );
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "failed") return <Failed error={loaded.error} what={resource.singular} />;
  return <RecordForm {...props} record={loaded.data as AnyRecord | undefined} />;
}

interface FormProps {
  api: AdminApi;
  view: AdminView;
  resource: AdminResource;
  hash?: string | undefined;
  record: AnyRecord | undefined;
}

function RecordForm(props: FormProps) {
  const { api, view, resource, hash, record } = props;
  const action = hash === undefined ? "create" : "update";
  // In an edit: the fields the record outputs or its payload takes; in a create: its payload's.
  const fields = resource.fields.filter((field) =>
    action === "create" ? field.create !== undefined : field.output || field.update !== undefined,
  );
  const inputs = useInputs(view, fields, record);
  const [failure, setFailure] = useState<{ message: string; errors: Errors } | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const failed = await save(
        api,
        resource,
        hash,
        await payloadFrom(api, resource, fields, action, inputs),
      );
      if (failed) setFailure(failed);
    } finally {
      setBusy(false);
    }
  }

  const labels = Object.fromEntries(fields.map((field) => [field.key, field.label]));
  return (
    <>
      <h1 tabIndex={-1}>
        {record === undefined
          ? `New ${resource.singular}`
          : `Edit ${resource.singular} ${titleOf(record, resource.titles)}`}
      </h1>
      <form class="record-form" onSubmit={submit} noValidate>
        {failure && (
          <ErrorSummary message={failure.message} errors={failure.errors} labels={labels} />
        )}
        {fields.map((field) => (
          <FieldInput
            key={field.key}
            api={api}
            view={view}
            field={field}
            input={action === "create" ? field.create : field.update}
            errors={failure?.errors[field.key]}
            {...inputs.of(field)}
          />
        ))}
        <FormActions
          busy={busy}
          label={action === "create" ? "Create" : "Save"}
          cancel={cancelOf(resource, hash)}
        />
      </form>
    </>
  );
}

function FormActions(props: { busy: boolean; label: string; cancel: string }) {
  return (
    <div class="actions">
      <button type="submit" class="primary" disabled={props.busy}>
        {props.label}
      </button>
      <a class="button" href={props.cancel}>
        Cancel
      </a>
    </div>
  );
}

/** Where Cancel goes: the record edited, or the list a new one would join. */
function cancelOf(resource: AdminResource, hash: string | undefined): string {
  const { collection } = resource;
  return hash === undefined
    ? href({ page: "list", collection, query: "" })
    : href({ page: "record", collection, hash });
}

/** Sends a built payload (create or update); the failure to show, or none (then to the record). */
async function save(
  api: AdminApi,
  resource: AdminResource,
  hash: string | undefined,
  built: { payload: AnyRecord; errors: Errors },
) {
  if (Object.keys(built.errors).length > 0)
    return { message: "Some fields need attention.", errors: built.errors };
  const routes = api.resource(resource.collection);
  const result =
    hash === undefined
      ? await routes.create(built.payload)
      : await routes.update(hash, built.payload);
  if (result.error !== undefined)
    return {
      message: result.error.message,
      errors: "errors" in result.error ? result.error.errors : {},
    };
  location.hash = href({
    page: "record",
    collection: resource.collection,
    hash: String((result.data as AnyRecord)[resource.idKey]),
  });
  return undefined;
}

/** What each input holds: its text, a related record's or a file's name, a file chosen (or null: remove it). */
function useInputs(view: AdminView, fields: readonly AdminField[], record: AnyRecord | undefined) {
  const initial = (field: AdminField) =>
    record === undefined ? "" : inputText(field, record[field.key]);
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((field) => [field.key, initial(field)])),
  );
  const [names, setNames] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      fields.map((field) => [field.key, record ? nameOf(view, field, record[field.key]) : ""]),
    ),
  );
  const [files, setFiles] = useState<Record<string, File | null | undefined>>({});
  const of = (field: AdminField) => ({
    text: texts[field.key] ?? "",
    shown: names[field.key] ?? "",
    onText: (text: string, name?: string) => {
      setTexts({ ...texts, [field.key]: text });
      if (name !== undefined) setNames({ ...names, [field.key]: name });
    },
    onFile: (file: File | null | undefined) => setFiles({ ...files, [field.key]: file }),
  });
  return { texts, files, initial, of };
}

/** How a value is named beside its input: a related record's title, a file's name and size. */
function nameOf(view: AdminView, field: AdminField, value: unknown): string {
  if (value === null || value === undefined) return "";
  if (field.type === "belongsTo") {
    const target = view.resources.find((resource) => resource.collection === field.target);
    return target ? titleOf(value, target.titles) : (hashOf(value) ?? "");
  }
  return field.type === "file" ? shown(field, value) : "";
}

/**
 * A create's filled inputs or an edit's changed ones, as the payload sends them; a chosen file is
 * uploaded first (two phases: the payload names its upload).
 */
async function payloadFrom(
  api: AdminApi,
  resource: AdminResource,
  fields: readonly AdminField[],
  action: "create" | "update",
  inputs: {
    texts: Record<string, string>;
    files: Record<string, File | null | undefined>;
    initial: (field: AdminField) => string;
  },
): Promise<{ payload: AnyRecord; errors: Errors }> {
  const payload: AnyRecord = {};
  const errors: Errors = {};
  for (const field of fields) {
    if (!(action === "create" ? field.create : field.update)) continue;
    if (field.type === "file") {
      const file = inputs.files[field.key];
      if (file === null) payload[field.key] = null;
      if (!file) continue;
      const uploaded = await api.resource(resource.collection).upload(field.key, file);
      if (uploaded.error !== undefined)
        errors[field.key] =
          "errors" in uploaded.error
            ? Object.values(uploaded.error.errors).flatMap((messages) => messages ?? [])
            : [uploaded.error.message];
      else payload[field.key] = uploaded.data.upload;
      continue;
    }
    const text = inputs.texts[field.key] ?? "";
    if (action === "update" && text === inputs.initial(field)) continue;
    try {
      const value = payloadValue(field, text, action);
      if (value !== undefined) payload[field.key] = value;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      errors[field.key] = [error.message];
    }
  }
  return { payload, errors };
}
