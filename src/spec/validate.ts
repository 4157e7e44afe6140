import { checkFieldRoles, checkManagedUsers, checkOwner, checkProjectRoles, checkResourceRoles, checkSetByServer, checkUserFields } from "./access-checks.js";
import { checkEagerLoadReaders } from "./eager-load-checks.js";
import { checkField } from "./field-checks.js";
import type { LoadedSpecs } from "./load.js";
import { normalizeProject, normalizeResource } from "./normalize.js";
import { sortProblems } from "./problem.js";
import { checkAcrossResources, checkClientNames, checkDatabaseLimits, checkResource, type CheckedResource } from "./resource-checks.js";
import { checkAgainstSchema } from "./schema-check.js";
import { checkRateLimits } from "./rate-limit-checks.js";
import { checkAccounts } from "./account-checks.js";
import { checkSchedules } from "./schedule-checks.js";
import { checkWebhooks } from "./webhook-checks.js";
import { checkTenancy, checkTenant, rolesViewOf } from "./tenant-checks.js";
import { checkReservedCollections, checkReservedNames } from "./collection-checks.js";
import type { Problem, ValidSpecs } from "./types.js";

/**
 * Every problem of a specs folder, all at once (schema first, then the checks that need the whole
 * picture), and the typed specs when there are none. Never throws for a user's mistake.
 */
export function validateSpecs(loaded: LoadedSpecs): { problems: Problem[]; specs?: ValidSpecs } {
  const problems: Problem[] = [...loaded.problems];

  let projectData: unknown = null;
  if (loaded.project) {
    const projectProblems = checkAgainstSchema("project", loaded.project.source, loaded.project.data);
    problems.push(...projectProblems);
    if (projectProblems.length === 0) projectData = loaded.project.data;
  }
  const project = normalizeProject(projectData as Parameters<typeof normalizeProject>[0]);
  if (loaded.project && projectData !== null) {
    for (const field of project.auth.user.fields) {
      problems.push(...checkField(loaded.project.source, ["auth", "user", "fields"], field, "user"));
    }
    problems.push(...checkProjectRoles(project, loaded.project.source), ...checkUserFields(project, loaded.project.source));
    // SQLite has no trigger that fills a row's other columns before its checks: no expand step.
    if (project.deploy === "rolling" && project.database !== "postgresql")
      problems.push(loaded.project.source.problem(["deploy"], "deploy: rolling needs database: postgresql (an expand step keeps renamed columns in step with a trigger SQLite cannot write); on SQLite, stop the old instance before npm run db:migrate"));
  }

  const resources: CheckedResource[] = [];
  const invalidNames: string[] = [...(loaded.unreadableNames ?? [])];
  for (const file of loaded.resources) {
    const schemaProblems = checkAgainstSchema("resource", file.source, file.data);
    problems.push(...schemaProblems);
    if (schemaProblems.length > 0) {
      const name = (file.data as { name?: unknown } | null)?.name;
      if (typeof name === "string") invalidNames.push(name);
      continue;
    }
    const resource = { spec: normalizeResource(file.source.file, file.data as Record<string, unknown>), source: file.source };
    // A tenanted resource's role lists name tenant roles (tenancy.roles), every other's platform roles.
    const roles = rolesViewOf(resource.spec, project);
    problems.push(...checkResource(resource), ...checkResourceRoles(resource, roles), ...checkFieldRoles(resource, roles), ...checkDatabaseLimits(resource, project), ...checkSetByServer(resource, roles));
    resources.push(resource);
  }
  problems.push(...checkAcrossResources(resources, invalidNames), ...checkClientNames(resources, project.auth.manageUsers !== undefined));
  for (const resource of resources) problems.push(...checkOwner(resource, resources, rolesViewOf(resource.spec, project)), ...checkTenant(resource, resources, project));
  problems.push(...checkEagerLoadReaders(resources, project));
  problems.push(...checkRateLimits(project, loaded.project?.source, resources));
  if (loaded.project && projectData !== null) problems.push(...checkManagedUsers(project, loaded.project.source, resources), ...checkWebhooks(project, loaded.project.source, resources), ...checkSchedules(project, loaded.project.source), ...checkAccounts(project, loaded.project.source), ...checkTenancy(project, loaded.project.source, resources), ...checkReservedCollections(project, resources), ...checkReservedNames(project, resources));

  if (problems.length > 0) return { problems: sortProblems(problems) };
  return { problems: [], specs: { project, resources: resources.map((resource) => resource.spec) } };
}
