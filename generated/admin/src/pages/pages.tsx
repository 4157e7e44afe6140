// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AdminApi } from "../api.js";
import type { AdminView } from "../manifest.js";
import { navigation } from "../parts/layout.js";
import { NotFound } from "../parts/states.js";
import { href, type Route } from "../routes.js";
import { FormPage } from "./form.js";
import { ListPage } from "./list.js";
import { RecordPage } from "./record.js";
import { ScreenPage } from "./screens.js";
import { useHeadingFocus } from "../hooks.js";

/** The page of a route, for the caller's view: what it may not reach is not found. */
export function Pages(props: { api: AdminApi; view: AdminView; route: Route }) {
  const { route, view, api } = props;
  useHeadingFocus(href(route));
  if (route.page === "home") return <Home view={view} />;
  if (route.page === "screen")
    return <ScreenPage api={api} view={view} screen={route.screen} query={route.query} />;
  const resource = view.resources.find((candidate) => candidate.collection === route.collection);
  if (!resource) return <NotFound what="page" />;
  switch (route.page) {
    case "list":
    case "trash":
      if (!resource.actions.index || (route.page === "trash" && !resource.softDelete))
        return <NotFound what="page" />;
      return (
        <ListPage
          key={route.page}
          api={api}
          view={view}
          resource={resource}
          trash={route.page === "trash"}
          query={route.query}
        />
      );
    case "new":
      if (!resource.actions.store) return <NotFound what="page" />;
      return <FormPage api={api} view={view} resource={resource} />;
    case "edit":
      if (!resource.actions.update) return <NotFound what="page" />;
      return (
        <FormPage key={route.hash} api={api} view={view} resource={resource} hash={route.hash} />
      );
    case "record":
      return (
        <RecordPage key={route.hash} api={api} view={view} resource={resource} hash={route.hash} />
      );
  }
}

function Home(props: { view: AdminView }) {
  return (
    <>
      <h1 tabIndex={-1}>{props.view.title}</h1>
      <ul class="cards">
        {navigation(props.view).map((item) => (
          <li key={item.label}>
            <a href={href(item.route)}>{item.label}</a>
          </li>
        ))}
      </ul>
    </>
  );
}
