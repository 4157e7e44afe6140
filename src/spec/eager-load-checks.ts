import type { CheckedResource } from "./checked.js";
import { didYouMean } from "./problem.js";
import type { SpecSource } from "./source.js";
import type { ActionName, Problem, ProjectSpec, ResourceSpec } from "./types.js";

/** eagerLoad names relations of the resource that its responses show (within one resource file). */
export function checkEagerLoad({ spec, source }: CheckedResource): Problem[] {
  const relationNames = new Set((spec.relations ?? []).map((relation) => relation.name));
  const hidden = new Set(spec.serializer?.hidden ?? []);
  // A relation no response shows (serializer.hidden, or left out of serializer.fields) cannot be
  // nested in every response: the runtime would output what openapi.json and the serializer hide.
  const outputKeys = spec.serializer?.fields;
  return (spec.eagerLoad ?? []).flatMap((name, index) => {
    const at = ["eagerLoad", index];
    if (!relationNames.has(name)) return [source.problem(at, `unknown relation "${name}"${didYouMean(name, relationNames)}`)];
    if (hidden.has(name))
      return [source.problem(at, `"${name}" is hidden (serializer.hidden): no response shows it, so none may nest it; remove it from eagerLoad or from serializer.hidden`)];
    if (outputKeys !== undefined && !outputKeys.includes(name))
      return [source.problem(at, `"${name}" is not in serializer.fields: no response shows it, so none may nest it; add it to serializer.fields or remove it from eagerLoad`)];
    return [];
  });
}

/** The actions whose answer is a record of the resource, with its eagerLoad relations nested. */
const answeringActions: readonly ActionName[] = ["index", "show", "store", "update", "restore"];

/**
 * A relation nested in every response (eagerLoad) is shown only to whom its own resource's show
 * would show it (a 403 otherwise, docs/spec-format.md "Relations"). So every role that gets this
 * resource's records back must be able to see what each of them nests, or every answer to that role
 * would be refused. Two ways it cannot:
 * - the related resource's show is limited to other roles (`auth.roles.show`): every response;
 * - the related resource is owned and the role does not bypass that ownership: every record that
 *   points at another user's record, which only holds off when this resource is owned through that
 *   very relation (`owner: { relation: <eager>.<its owner> }`), so a reader reaches only records
 *   whose parent is their own.
 * Refused here, naming the roles, rather than as 403s the project's own tests find.
 */
export function checkEagerLoadReaders(resources: readonly CheckedResource[], project: ProjectSpec): Problem[] {
  const byName = new Map(resources.map(({ spec }) => [spec.name, spec]));
  const problems: Problem[] = [];
  for (const { spec, source } of resources) {
    const readers = readingRoles(spec, project.auth.roles);
    (spec.eagerLoad ?? []).forEach((name, index) => {
      const relation = spec.relations?.find((candidate) => candidate.name === name);
      const target = relation && byName.get(relation.resource);
      if (!relation || !target || target === spec) return;
      const at = ["eagerLoad", index];
      problems.push(...checkPublicEagerLoad(spec, source, index, target));
      const showRoles = target.auth?.public?.includes("show") ? undefined : target.auth?.roles?.show;
      const refused = showRoles ? readers.filter((role) => !showRoles.includes(role)) : [];
      if (refused.length > 0) {
        problems.push(
          source.problem(
            at,
            `"${name}" is nested in every response of ${spec.name}, which ${listed(refused)} ${refused.length > 1 ? "get" : "gets"} back, but ${target.name}'s show is limited to ${listed(showRoles!)} (auth.roles.show): every answer to ${listed(refused)} would be 403. Add ${listed(refused)} to auth.roles.show in ${target.file}, or remove "${name}" from eagerLoad (a caller who may see it asks with ?with=${name})`,
          ),
        );
        return;
      }
      if (relation.type !== "belongsTo" || !target.owner) return;
      const strangers = readers.filter((role) => !ownsEveryNested(spec, name, target, role));
      if (strangers.length === 0) return;
      const through = `${name}.${target.owner.relation}`;
      const ownThrough = target.owner.relation.includes(".") ? "" : `own ${spec.name} through it (owner: { relation: ${through} }), `;
      problems.push(
        source.problem(
          at,
          `"${name}" is nested in every response of ${spec.name}, but ${target.name} is owned (owner: ${target.owner.relation}) and ${listed(strangers)} ${strangers.length > 1 ? "do" : "does"} not bypass it: any ${spec.name} that points at another user's ${target.name} would be 403 to them, a whole page at a time. ${capitalized(ownThrough)}${ownThrough ? "add" : "Add"} ${listed(strangers)} to owner.bypass in ${target.file}, or remove "${name}" from eagerLoad (a caller who owns it asks with ?with=${name})`,
        ),
      );
    });
  }
  return problems;
}

/** The roles that get the resource's records back: those its answering actions allow. */
function readingRoles(spec: ResourceSpec, roles: readonly string[]): string[] {
  const actions = answeringActions.filter((action) => action !== "restore" || spec.softDelete === true);
  const allowed = (action: ActionName) => (spec.auth?.public?.includes(action) ? roles : (spec.auth?.roles?.[action] ?? roles));
  return roles.filter((role) => actions.some((action) => allowed(action).includes(role)));
}

/**
 * Whether every record of `spec` that `role` reaches nests a `relation` record the role may see:
 * it bypasses the target's ownership, or `spec` is owned through that relation and the role does
 * not bypass `spec`'s own ownership (which would reach the records of every user).
 */
function ownsEveryNested(spec: ResourceSpec, relation: string, target: ResourceSpec, role: string): boolean {
  if (target.owner?.bypass?.includes(role)) return true;
  const ownedThrough = spec.owner?.relation === `${relation}.${target.owner!.relation}`;
  return ownedThrough && !(spec.owner?.bypass ?? []).includes(role);
}

const listed = (roles: readonly string[]) => (roles.length === 1 ? roles[0]! : `${roles.slice(0, -1).join(", ")} and ${roles.at(-1)}`);
const capitalized = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

/**
 * A relation nested in every response (eagerLoad) of a resource that anonymous callers may read
 * must point at a resource that anonymous callers may see too: otherwise every anonymous read would
 * be refused with 401 (a nested record is shown only to whom its own show action would show it).
 */
function checkPublicEagerLoad(spec: ResourceSpec, source: SpecSource, index: number, target: ResourceSpec): Problem[] {
  const relation = spec.eagerLoad![index]!;
  const publicReads = (spec.auth?.public ?? []).filter((action) => action === "index" || action === "show");
  if (publicReads.length === 0 || (target.auth?.public ?? []).includes("show")) return [];
  return [
    source.problem(
      ["eagerLoad", index],
      `"${relation}" is nested in every response of ${spec.name}, whose ${publicReads.join(" and ")} ${publicReads.length > 1 ? "are" : "is"} public, but ${target.name}'s show is not: anonymous callers would get 401. Add show to auth.public in ${target.file}, or remove "${relation}" from eagerLoad`,
    ),
  ];
}
