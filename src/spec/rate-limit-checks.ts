import { didYouMean } from "./problem.js";
import type { CheckedResource } from "./resource-checks.js";
import type { SpecSource } from "./source.js";
import type { Problem, ProjectSpec } from "./types.js";

/**
 * `rateLimit` in hashapi.yaml and in resources: every role named is one of auth.roles (a typo
 * would leave that role unlimited), and `restore` only where there is soft delete to restore from.
 */
export function checkRateLimits(project: ProjectSpec, projectSource: SpecSource | undefined, resources: readonly CheckedResource[]): Problem[] {
  const problems: Problem[] = [];
  const roles = project.auth.roles;
  for (const role of Object.keys(project.rateLimit?.roles ?? {}))
    if (!roles.includes(role) && projectSource)
      problems.push(projectSource.problem(["rateLimit", "roles", role], `unknown role "${role}": rateLimit.roles names roles of auth.roles (${roles.join(", ")})${didYouMean(role, roles)}`));
  if (project.rateLimit?.tenant !== undefined && !project.tenancy && projectSource)
    problems.push(projectSource.problem(["rateLimit", "tenant"], "rateLimit.tenant counts a tenant's requests: it needs tenancy in hashapi.yaml", "key"));
  for (const { spec, source } of resources)
    if (spec.rateLimit?.restore !== undefined && spec.softDelete !== true)
      problems.push(source.problem(["rateLimit", "restore"], `${spec.name} has no soft delete: it has no restore to limit (add softDelete: true, or remove rateLimit.restore)`));
  return problems;
}
