// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * The one vocabulary of a resource's actions, shared by the generator and the generated service:
 * hashapi's own src/model/actions.ts is this very file (a link). A per-action setting is one more
 * column here, read by the spec checks, the model, openapi.json, the README and the router alike.
 */

export interface ActionShape {
  readonly name: string;
  /** HTTP methods, the documented one first (PUT and PATCH both update). */
  readonly methods: readonly ("get" | "post" | "put" | "patch" | "delete")[];
  /** Below the collection's path: nothing, one record, or one record's restore. */
  readonly path: "" | "/:hash" | "/:hash/restore";
  /** It exists only for resources with `softDelete: true`. */
  readonly softDeleteOnly: boolean;
}

export const actionTable = [
  {
    name: "index",
    methods: ["get"],
    path: "",
    softDeleteOnly: false,
  },
  {
    name: "store",
    methods: ["post"],
    path: "",
    softDeleteOnly: false,
  },
  {
    name: "show",
    methods: ["get"],
    path: "/:hash",
    softDeleteOnly: false,
  },
  {
    name: "update",
    methods: ["put", "patch"],
    path: "/:hash",
    softDeleteOnly: false,
  },
  {
    name: "destroy",
    methods: ["delete"],
    path: "/:hash",
    softDeleteOnly: false,
  },
  {
    name: "restore",
    methods: ["post"],
    path: "/:hash/restore",
    softDeleteOnly: true,
  },
] as const satisfies readonly ActionShape[];

export type ActionName = (typeof actionTable)[number]["name"];

export const actionNames: readonly ActionName[] = actionTable.map((action) => action.name);

/** The actions a resource has: restore only with soft delete. */
export function actionsOf(softDelete: boolean): readonly (typeof actionTable)[number][] {
  return actionTable.filter((action) => softDelete || !action.softDeleteOnly);
}

const actionNameSet: ReadonlySet<string> = new Set(actionNames);

/** Whether a string names an action. */
export function isActionName(name: string): name is ActionName {
  return actionNameSet.has(name);
}
