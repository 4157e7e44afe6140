// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ComponentChildren } from "preact";
import type { AdminApi, Me } from "../api.js";
import type { AdminView } from "../manifest.js";
import { href, type Route } from "../routes.js";
import { TenantSwitcher } from "./tenant-switcher.js";

/** The resources and screens the caller's role reaches, as the navigation lists them. */
export function navigation(view: AdminView): { label: string; route: Route }[] {
  const items: { label: string; route: Route }[] = view.resources
    .filter((resource) => resource.actions.index)
    .map((resource) => ({
      label: resource.label,
      route: { page: "list", collection: resource.collection, query: "" },
    }));
  const { extras } = view;
  if (extras.members)
    items.push({ label: "Members", route: { page: "screen", screen: "members", query: "" } });
  if (extras.invitations)
    items.push({
      label: "Invitations",
      route: { page: "screen", screen: "invitations", query: "" },
    });
  if (extras.deliveries)
    items.push({
      label: "Webhook deliveries",
      route: { page: "screen", screen: "deliveries", query: "" },
    });
  if (extras.jobs)
    items.push({ label: "Jobs", route: { page: "screen", screen: "jobs", query: "" } });
  return items;
}

function current(item: Route, route: Route): boolean {
  if (item.page === "list" && "collection" in route) return route.collection === item.collection;
  return item.page === "screen" && route.page === "screen" && route.screen === item.screen;
}

/** The resources and screens of the caller's role, the one shown marked. */
function Sections(props: { view: AdminView; route: Route }) {
  return (
    <nav aria-label="Sections">
      <ul>
        {navigation(props.view).map((item) => (
          <li key={item.label}>
            <a
              href={href(item.route)}
              aria-current={current(item.route, props.route) ? "page" : undefined}
            >
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The page's frame: a skip link, the header (who, which tenant, sign out), the navigation, the page. */
export function Layout(props: {
  api: AdminApi;
  view: AdminView;
  me: Me;
  route: Route;
  onSignOut: () => void;
  onTenant: () => void;
  children: ComponentChildren;
}) {
  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.querySelector<HTMLElement>("main h1")?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/">
          {props.view.title}
        </a>
        {props.view.extras.tenancy && (
          <TenantSwitcher
            api={props.api}
            label={props.view.extras.tenancy.label}
            onChange={props.onTenant}
          />
        )}
        <span class="who">
          {props.me.name} <span class="role">({props.me.role})</span>
        </span>
        <button type="button" onClick={props.onSignOut}>
          Sign out
        </button>
      </header>
      <div class="frame">
        <Sections view={props.view} route={props.route} />
        <main id="main" data-route={href(props.route)}>
          {props.children}
        </main>
      </div>
    </>
  );
}
