import { toSnake } from "../model/naming.js";
import { isTenanted } from "./tenant-checks.js";
import { didYouMean } from "./problem.js";
import type { CheckedResource } from "./resource-checks.js";
import type { SpecSource } from "./source.js";
import type { Problem, ProjectSpec } from "./types.js";

/** What each resource's events are called: `<resource>.<what>`, and a belongsToMany's `<resource>.<relation>.<what>`. */
function eventNames(resources: readonly CheckedResource[]): Map<string, { soft: boolean; links: string[] }> {
  const names = new Map<string, { soft: boolean; links: string[] }>([["user", { soft: false, links: [] }]]);
  for (const { spec } of resources)
    names.set(toSnake(spec.name), {
      soft: spec.softDelete === true,
      links: (spec.relations ?? []).filter((relation) => relation.type === "belongsToMany").map((relation) => relation.name),
    });
  return names;
}

/**
 * hashapi.yaml `webhooks`: names used once, `as` one of the roles, and every event a pattern names
 * one a resource of these specs has (a typo would make a receiver that never hears anything).
 */
export function checkWebhooks(project: ProjectSpec, source: SpecSource, resources: readonly CheckedResource[]): Problem[] {
  const problems: Problem[] = [];
  const names = eventNames(resources);
  const seen = new Set<string>();
  project.webhooks.forEach((webhook, index) => {
    if (seen.has(webhook.name)) problems.push(source.problem(["webhooks", index, "name"], `a second webhook named "${webhook.name}": each needs a name of its own`));
    seen.add(webhook.name);
    // With tenancy, a webhook may read as a tenant role: in each event's own tenant.
    const known = [...project.auth.roles, ...(project.tenancy?.roles ?? [])];
    const lists = project.tenancy ? "auth.roles or tenancy.roles" : "auth.roles";
    if (webhook.as !== undefined && !known.includes(webhook.as))
      problems.push(source.problem(["webhooks", index, "as"], `unknown role "${webhook.as}": it must be one of ${lists} (${known.join(", ")})${didYouMean(webhook.as, known)}`));
    if (!/^(\$\{[A-Z][A-Z0-9_]*\}|https?:\/\/\S+)$/.test(webhook.url))
      problems.push(source.problem(["webhooks", index, "url"], `"${webhook.url}" is neither \${NAME} (an environment variable, read at start-up) nor an http:// or https:// URL`));
    if (!environmentVariable.test(webhook.secret))
      problems.push(source.problem(["webhooks", index, "secret"], "the secret must be ${NAME}: an environment variable holding it, read at start-up (a secret written in the specs would be in every copy of them)"));
    const role = webhook.as ?? project.auth.roles[0]!;
    webhook.events.forEach((pattern, position) => {
      const problem = patternProblem(pattern, names) ?? reachProblem(pattern, role, project, resources);
      if (problem) problems.push(source.problem(["webhooks", index, "events", position], problem));
    });
  });
  return problems;
}

/**
 * A webhook is sent what its `as` role may show (runtime resource/exits.ts). Naming a resource's
 * events that role can never read would make a receiver that never hears them: refused, with why.
 * (`*` takes what the role may read and leaves the rest, which needs no refusal.)
 */
function reachProblem(pattern: string, role: string, project: ProjectSpec, resources: readonly CheckedResource[]): string | undefined {
  if (pattern === "*") return undefined;
  const event = pattern.slice(0, pattern.indexOf("."));
  if (event === "user") {
    const managers = project.auth.manageUsers ?? [];
    return managers.includes(role)
      ? undefined
      : `user events hold users' e-mails and roles, which only the roles of auth.users.manage read (${managers.length > 0 ? managers.join(", ") : "none: no auth.users.manage"}), and this webhook is sent what ${role} reads (as:): leave them out, or send them as one of those roles`;
  }
  const found = resources.find((resource) => toSnake(resource.spec.name) === event)?.spec;
  if (found === undefined) return undefined;
  const spec = found;
  // A tenant's records are read in the event's tenant: as the tenant role named, or as the first
  // tenant role for a bypass role; any other platform role reads no tenant's records.
  const tenancy = project.tenancy;
  if (tenancy && isTenanted(spec, project) && !tenancy.roles.includes(role)) {
    if (!tenancy.bypass.includes(role))
      return `${spec.name} records belong to tenants, and ${role} is a platform role that acts in none (tenancy.bypass: ${tenancy.bypass.join(", ") || "none"}): send them as a tenant role (${tenancy.roles.join(", ")}), or leave them out`;
    role = tenancy.roles[0]!;
  }
  const showRoles = spec.auth?.roles?.show;
  if (showRoles !== undefined && !showRoles.includes(role))
    return `${role} may not show ${spec.name} records (auth.roles.show: ${showRoles.join(", ")}), and this webhook is sent what ${role} reads (as:): it would never be sent these events; leave them out, or send them as one of those roles`;
  const owner = spec.owner;
  if (owner !== undefined && !(owner.bypass ?? []).includes(role))
    return `${role} reaches only its own ${spec.name} records (owner:), and a webhook owns none: it would never be sent these events; send them as a role of owner.bypass (${(owner.bypass ?? []).join(", ") || "none"}), or leave them out`;
  return undefined;
}

const environmentVariable = /^\$\{[A-Z][A-Z0-9_]*\}$/;
const patternShape = /^[a-z][a-z0-9_]*\.(\*|created|updated|deleted|restored|[a-z][a-z0-9_]*\.(attached|detached))$/;

function patternProblem(pattern: string, names: ReadonlyMap<string, { soft: boolean; links: string[] }>): string | undefined {
  if (pattern === "*") return undefined;
  if (!patternShape.test(pattern))
    return `"${pattern}" is not an event type: <resource>.created, .updated, .deleted, .restored, <resource>.<relation>.attached or .detached, <resource>.* (all of a resource) or * (all)`;
  const [resource, ...rest] = pattern.split(".");
  const known = names.get(resource!);
  if (known === undefined) return `no resource has events named "${resource}.…"${didYouMean(resource!, [...names.keys()])}: events are named after a resource in snake_case (${[...names.keys()].join(", ")})`;
  if (rest.length === 2) {
    if (!known.links.includes(rest[0]!)) return `${resource} has no belongsToMany named "${rest[0]}"${didYouMean(rest[0]!, known.links)}: links' events are <resource>.<relation>.attached or .detached`;
    return undefined;
  }
  if (rest[0] === "restored" && !known.soft) return `${resource} has no soft delete: it is never restored`;
  return undefined;
}
