// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useState } from "preact/hooks";
import type { ApiFailure, CursorMeta, Page, Result } from "../../../client/src/core.js";
import type { AdminApi, AnyRecord } from "../api.js";
import { useLoad } from "../hooks.js";
import type { AdminField, AdminLink, AdminResource, AdminView } from "../manifest.js";
import { href } from "../routes.js";
import { payloadValue, shown, titleOf } from "../values.js";
import { idOf } from "./cells.js";
import { FieldInput } from "./field-input.js";
import { ErrorSummary } from "./inputs.js";

interface EditorProps {
  api: AdminApi;
  view: AdminView;
  resource: AdminResource;
  link: AdminLink;
  owner: string;
  writable: boolean;
}

/**
 * A belongsToMany of one record: the linked records with their pivot values (PUT links one, or
 * changes its pivot; DELETE unlinks it), a picker that searches the related list to add one.
 */
export function LinksEditor(props: EditorProps) {
  const { api, view, link } = props;
  const target = view.resources.find((resource) => resource.collection === link.target)!;
  const routes = api.resource(props.resource.collection).links(link.key)(props.owner);
  const [cursor, setCursor] = useState("");
  const [loaded, reload] = useLoad(() => routes.list({ cursor, perPage: 50 }), [cursor]);
  const [refusal, setRefusal] = useState<string | undefined>();
  const prefix = `${link.key}-link`;

  async function detach(hash: string) {
    const result = await routes.detach(hash);
    setRefusal(result.error?.message);
    reload();
  }

  const page =
    loaded.state === "done"
      ? (loaded.data as Page<AnyRecord & { pivot?: AnyRecord }, CursorMeta>)
      : undefined;
  return (
    <section aria-labelledby={`${prefix}-heading`}>
      <h2 id={`${prefix}-heading`}>{link.label}</h2>
      {page && (
        <ul class="links">
          {page.data.map((record) => (
            <LinkedItem
              key={idOf(target, record)}
              target={target}
              pivot={link.pivot ?? []}
              record={record}
              onUnlink={props.writable ? detach : undefined}
            />
          ))}
          {page.data.length === 0 && <li>None.</li>}
        </ul>
      )}
      {page?.meta.next_cursor && (
        <button type="button" onClick={() => setCursor(page.meta.next_cursor ?? "")}>
          More
        </button>
      )}
      {refusal && (
        <p class="error-summary" role="alert">
          {refusal}
        </p>
      )}
      {props.writable && (
        <LinkForm
          api={api}
          view={view}
          link={link}
          target={target}
          prefix={prefix}
          attach={routes.attach}
          onLinked={reload}
        />
      )}
    </section>
  );
}

/** A linked record: its link, its pivot values, and unlinking it (for those who may). */
function LinkedItem(props: {
  target: AdminResource;
  pivot: readonly AdminField[];
  record: AnyRecord & { pivot?: AnyRecord };
  onUnlink: ((hash: string) => void) | undefined;
}) {
  const { target, record, onUnlink } = props;
  const hash = idOf(target, record);
  const title = titleOf(record, target.titles);
  return (
    <li>
      <a href={href({ page: "record", collection: target.collection, hash })}>{title}</a>
      {props.pivot.map((field) => (
        <span key={field.key} class="pivot">
          {" "}
          · {field.label}: {shown(field, record.pivot?.[field.key])}
        </span>
      ))}
      {onUnlink && (
        <button
          type="button"
          class="link"
          onClick={() => onUnlink(hash)}
          aria-label={`Unlink ${title}`}
        >
          Unlink
        </button>
      )}
    </li>
  );
}

type Failure = { message: string; errors: Partial<Record<string, readonly string[]>> };

interface LinkFormProps {
  api: AdminApi;
  view: AdminView;
  link: AdminLink;
  target: AdminResource;
  prefix: string;
  attach: (hash: string, pivot: AnyRecord) => Promise<Result<unknown, ApiFailure>>;
  onLinked: () => void;
}

/** Links a record (a picker that searches the server) with its pivot's values; errors under each. */
function LinkForm(props: LinkFormProps) {
  const { api, view, target, prefix } = props;
  const [chosen, setChosen] = useState({ hash: "", title: "" });
  const [pivot, setPivot] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<Failure | undefined>();
  const pivotFields = props.link.pivot ?? [];
  const errorsOf = (key: string) => failure?.errors[`${prefix}-${key}`];

  async function attach(event: Event) {
    event.preventDefault();
    const result = await props.attach(chosen.hash, pivotPayload(pivotFields, pivot));
    if (result.error !== undefined)
      return setFailure({
        message: result.error.message,
        errors: "errors" in result.error ? prefixed(result.error.errors, prefix) : {},
      });
    setFailure(undefined);
    setChosen({ hash: "", title: "" });
    setPivot({});
    props.onLinked();
  }

  return (
    <form class="link-form" onSubmit={attach} noValidate aria-label={`Link ${target.singular}`}>
      {failure && <ErrorSummary message={failure.message} errors={failure.errors} />}
      <FieldInput
        api={api}
        view={view}
        field={targetField(prefix, target)}
        input={{ required: true }}
        text={chosen.hash}
        shown={chosen.title}
        errors={errorsOf("target")}
        onText={(hash, title) => setChosen({ hash, title: title ?? "" })}
        onFile={() => undefined}
      />
      {pivotFields.map((field) => (
        <FieldInput
          key={field.key}
          api={api}
          view={view}
          field={{ ...field, key: `${prefix}-${field.key}` }}
          input={field.create ?? {}}
          text={pivot[field.key] ?? ""}
          shown=""
          errors={errorsOf(field.key)}
          onText={(text) => setPivot({ ...pivot, [field.key]: text })}
          onFile={() => undefined}
        />
      ))}
      <button type="submit" disabled={chosen.hash === ""}>
        Link
      </button>
    </form>
  );
}

/** The picker of the record to link, as a belongsTo to the related collection. */
function targetField(prefix: string, target: AdminResource): AdminField {
  return {
    key: `${prefix}-target`,
    label: `Link ${target.singular}`,
    type: "belongsTo",
    target: target.collection,
    output: false,
  };
}

/** A link's pivot values as its payload sends them. */
function pivotPayload(fields: readonly AdminField[], texts: Record<string, string>): AnyRecord {
  const values: AnyRecord = {};
  for (const field of fields) {
    const value = payloadValue(field, texts[field.key] ?? "", "create");
    if (value !== undefined) values[field.key] = value;
  }
  return values;
}

/** The errors of a link's pivot, keyed as its inputs are (two editors on a page never share an id). */
function prefixed(
  errors: Readonly<Partial<Record<string, readonly string[]>>>,
  prefix: string,
): Partial<Record<string, readonly string[]>> {
  return Object.fromEntries(
    Object.entries(errors).map(([key, messages]) => [`${prefix}-${key}`, messages]),
  );
}
