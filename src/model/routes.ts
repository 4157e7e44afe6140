import type { ActionModel, ActionName } from "./types.js";

/** One HTTP route of a resource, as the generated README lists it (the router: runtime resource/routes.ts). */
export interface RouteModel {
  method: string;
  path: string;
  action: ActionName;
  /** "public" or "bearer token". */
  access: string;
}

const shapes: [ActionName, string, string][] = [
  ["index", "GET", ""],
  ["store", "POST", ""],
  ["show", "GET", "/{hash}"],
  ["update", "PUT, PATCH", "/{hash}"],
  ["destroy", "DELETE", "/{hash}"],
  ["restore", "POST", "/{hash}/restore"],
];

export function routesOf(collection: string, actions: Record<ActionName, ActionModel>): RouteModel[] {
  return shapes
    .filter(([action]) => actions[action].enabled)
    .map(([action, method, suffix]) => ({
      method,
      path: `/api/${collection}${suffix}`,
      action,
      access: actions[action].public ? "public" : "bearer token",
    }));
}
