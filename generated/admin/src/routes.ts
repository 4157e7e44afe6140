// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * The admin's addresses: everything after `#` (the pages are one file; a reload or a shared link
 * opens the same page). A list's query is the API's own (`filter[name][contains]=…`, `sort`,
 * `page`, `cursor`), so what the address says is what the list asks.
 */

export type Route =
  | { readonly page: "home" }
  | { readonly page: "list"; readonly collection: string; readonly query: string }
  | { readonly page: "trash"; readonly collection: string; readonly query: string }
  | { readonly page: "new"; readonly collection: string }
  | { readonly page: "record"; readonly collection: string; readonly hash: string }
  | { readonly page: "edit"; readonly collection: string; readonly hash: string }
  | { readonly page: "screen"; readonly screen: Screen; readonly query: string };

/** The screens beside the resources. */
export type Screen = "invitations" | "deliveries" | "jobs" | "members";
const screens: readonly string[] = ["invitations", "deliveries", "jobs", "members"];

const segment = /^[A-Za-z0-9_-]+$/;

/** The route of `location.hash` (`#/patients/PAT_7KX9MQ2B/edit`); an unknown one is home. */
export function parseRoute(hash: string): Route {
  const [path = "", query = ""] = hash.replace(/^#\/?/, "").split("?", 2) as [string, string?];
  const parts = path.split("/").filter((part) => part !== "");
  if (parts.length === 0 || !parts.every((part) => segment.test(part))) return { page: "home" };
  const [first, second, third] = parts as [string, string?, string?];
  if (first === "-") {
    if (second !== undefined && screens.includes(second) && third === undefined)
      return { page: "screen", screen: second as Screen, query };
    return { page: "home" };
  }
  if (parts.length === 1) return { page: "list", collection: first, query };
  if (parts.length === 2 && second === "trash") return { page: "trash", collection: first, query };
  if (parts.length === 2 && second === "new") return { page: "new", collection: first };
  if (parts.length === 2) return { page: "record", collection: first, hash: second! };
  if (parts.length === 3 && third === "edit")
    return { page: "edit", collection: first, hash: second! };
  return { page: "home" };
}

/** The address of a route, as links write it. */
export function href(route: Route): string {
  const withQuery = (path: string, query: string) => (query === "" ? path : `${path}?${query}`);
  switch (route.page) {
    case "home":
      return "#/";
    case "list":
      return withQuery(`#/${route.collection}`, route.query);
    case "trash":
      return withQuery(`#/${route.collection}/trash`, route.query);
    case "new":
      return `#/${route.collection}/new`;
    case "record":
      return `#/${route.collection}/${encodeURIComponent(route.hash)}`;
    case "edit":
      return `#/${route.collection}/${encodeURIComponent(route.hash)}/edit`;
    case "screen":
      return withQuery(`#/-/${route.screen}`, route.query);
  }
}
