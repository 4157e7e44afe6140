// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AdminField, AdminResource, AdminView } from "../manifest.js";
import { href } from "../routes.js";
import { hashOf, shown, titleOf } from "../values.js";

/** A value as a cell or a record page shows it: a related record as a link, a file as its link. */
export function Value(props: { view: AdminView; field: AdminField; value: unknown }) {
  const { field, value, view } = props;
  if (field.type === "belongsTo" && value !== null && value !== undefined) {
    const target = view.resources.find((resource) => resource.collection === field.target);
    const hash = hashOf(value);
    const text = target ? titleOf(value, target.titles) : (hash ?? "");
    if (target?.actions.show && hash)
      return <a href={href({ page: "record", collection: target.collection, hash })}>{text}</a>;
    return <span>{text}</span>;
  }
  if (field.type === "file" && typeof value === "object" && value !== null && "url" in value)
    return (
      <a href={String((value as { url: unknown }).url)} rel="noreferrer" target="_blank">
        {shown(field, value)}
      </a>
    );
  return (
    <span class={field.type === "text" || field.type === "json" ? "long" : undefined}>
      {shown(field, value)}
    </span>
  );
}

/** The belongsTo relations a page loads with its records: those whose target the role reads. */
export function loadable(view: AdminView, resource: AdminResource): string[] {
  return resource.fields
    .filter(
      (field) =>
        field.type === "belongsTo" &&
        field.output &&
        view.resources.some((target) => target.collection === field.target && target.actions.show),
    )
    .map((field) => field.key);
}

/** A record's public id. */
export function idOf(resource: AdminResource, record: Record<string, unknown>): string {
  return String(record[resource.idKey] ?? "");
}
