import { actionTable } from "./actions.js";
import type { RouteModel } from "./route-model.js";
import type { ActionModel, ActionName } from "./types.js";

export type { RouteModel } from "./route-model.js";

/** The README's routes, from the action table the router uses too. */
export function routesOf(collection: string, actions: Record<ActionName, ActionModel>, owner?: Owner): RouteModel[] {
  const reach = reachOf(owner);
  return actionTable
    .filter(({ name }) => actions[name].enabled)
    .map(({ name, methods, path }) => ({
      method: methods.map((method) => method.toUpperCase()).join(", "),
      path: `/api/${collection}${path.replace(":hash", "{hash}")}`,
      action: name,
      access: `${accessOf(actions[name])}${actions[name].public ? "" : reach}`,
    }));
}

/** The history route of a resource with `audit`: open to whom its show is, on the records they reach. */
export function historyRoute(collection: string, actions: Record<ActionName, ActionModel>, owner?: Owner): RouteModel {
  return { method: "GET", path: `/api/${collection}/{hash}/history`, action: "history", access: `${accessOf(actions.show)}${actions.show.public ? "" : reachOf(owner)}` };
}

type Owner = { relation: string; bypass?: string[] };

function reachOf(owner: Owner | undefined): string {
  return owner ? `; own records only (${owner.relation}${owner.bypass?.length ? `; all for ${owner.bypass.join(", ")}` : ""})` : "";
}

function accessOf(action: ActionModel): string {
  if (action.public) return "public";
  if (action.roles === undefined) return "bearer token";
  return action.roles.length === 0 ? "nobody (auth.roles is empty)" : `roles: ${action.roles.join(", ")}`;
}

/** The README's routes of one belongsToMany: its list, and linking and unlinking one related record. */
export function manyToManyRoutes(collection: string, relation: string, actions: Record<ActionName, ActionModel>, targetIndex: ActionModel): RouteModel[] {
  const base = `/api/${collection}/{hash}/${relation}`;
  const label = relation.replaceAll("_", " ");
  const read = actions.show.public && targetIndex.public ? "public" : "bearer token";
  const write = accessOf({ ...actions.update, public: false });
  return [
    { method: "GET", path: base, action: `list ${label}`, access: read },
    { method: "PUT", path: `${base}/{related}`, action: `link one of ${label}`, access: write },
    { method: "DELETE", path: `${base}/{related}`, action: `unlink one of ${label}`, access: write },
  ];
}
