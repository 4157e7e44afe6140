// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AdminApi, AnyRecord } from "../api.js";
import { useLoad } from "../hooks.js";
import type { AdminField, AdminResource, AdminView } from "../manifest.js";
import { loadable, Value } from "../parts/cells.js";
import { DeleteButton } from "../parts/delete-button.js";
import { History } from "../parts/history.js";
import { LinksEditor } from "../parts/links-editor.js";
import { Failed, Loading } from "../parts/states.js";
import { href } from "../routes.js";
import { titleOf } from "../values.js";

interface RecordProps {
  api: AdminApi;
  view: AdminView;
  resource: AdminResource;
  hash: string;
}

/** One record: its fields as the role sees them, its relations as links, its history, its actions. */
export function RecordPage(props: RecordProps) {
  const { api, view, resource, hash } = props;
  const [loaded] = useLoad(
    () => api.resource(resource.collection).get(hash, { with: loadable(view, resource) }),
    [hash],
  );
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "failed") return <Failed error={loaded.error} what={resource.singular} />;
  const record = loaded.data as AnyRecord;
  const title = titleOf(record, resource.titles);
  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>
          <span class="kind">{resource.singular}</span> {title}
        </h1>
        <div class="actions">
          {resource.actions.update && (
            <a
              class="button primary"
              href={href({ page: "edit", collection: resource.collection, hash })}
            >
              Edit
            </a>
          )}
          {resource.actions.destroy && (
            <DeleteButton api={api} resource={resource} hash={hash} title={title} />
          )}
        </div>
      </div>
      <RecordFields view={view} resource={resource} record={record} hash={hash} />
      <Related resource={resource} hash={hash} />
      {resource.links
        .filter((link) => link.kind === "belongsToMany")
        .map((link) => (
          <LinksEditor
            key={link.key}
            api={api}
            view={view}
            resource={resource}
            link={link}
            owner={hash}
            writable={Boolean(resource.actions.update)}
          />
        ))}
      {resource.audit && <History api={api} resource={resource} hash={hash} />}
    </>
  );
}

const timestamps: readonly AdminField[] = [
  { key: "created_at", label: "Created", type: "datetime", output: true },
  { key: "updated_at", label: "Updated", type: "datetime", output: true },
];

/** The record's public id, the fields the role sees, and its timestamps. */
function RecordFields(props: {
  view: AdminView;
  resource: AdminResource;
  record: AnyRecord;
  hash: string;
}) {
  const shownFields = [...props.resource.fields.filter((field) => field.output), ...timestamps];
  return (
    <dl class="record">
      <dt>Id</dt>
      <dd>
        <code>{props.hash}</code>
      </dd>
      {shownFields.map((field) => (
        <div key={field.key} class="pair">
          <dt>{field.label}</dt>
          <dd>
            <Value view={props.view} field={field} value={props.record[field.key]} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Each hasMany as a link to the related list, filtered to this record. */
function Related(props: { resource: AdminResource; hash: string }) {
  const links = props.resource.links.filter((link) => link.kind === "hasMany");
  if (links.length === 0) return null;
  const query = (inverse: string | undefined) =>
    `filter[${inverse}][eq]=${encodeURIComponent(props.hash)}`;
  return (
    <section aria-labelledby="related-heading">
      <h2 id="related-heading">Related</h2>
      <ul class="related">
        {links.map((link) => (
          <li key={link.key}>
            <a href={href({ page: "list", collection: link.target, query: query(link.inverse) })}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
