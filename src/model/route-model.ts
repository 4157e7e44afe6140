import type { ActionName } from "./actions.js";

/** One HTTP route of a resource, as the generated README lists it (the router: runtime resource/routes.ts). */
export interface RouteModel {
  method: string;
  path: string;
  /** The action, or what a relation route does ("list specialties"). */
  action: ActionName | string;
  /** "public", "bearer token", or the roles that may call it; and whose records it reaches. */
  access: string;
}
