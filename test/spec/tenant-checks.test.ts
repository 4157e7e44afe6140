import { describe, expect, it } from "vitest";
import { parseSpecFile, validateSpecs, type LoadedSpecs } from "../../src/spec/index.js";

/** hashapi.yaml's tenancy and each resource's `tenant:` (issue 49): unscoped resources are refused. */
const tenancy = "auth:\n  roles: [staff, user]\ntenancy:\n  resource: Agency\n  roles: [owner, manager, member]\n  bypass: [staff]\n";
const agency = "name: Agency\nfields:\n  name: { type: string }\n";
const job = (extra = "tenant: true\n") => `name: Job\nfields:\n  title: { type: string }\n  code: { type: string, unique: true }\n${extra}`;
const problemsOf = (project: string, resources: Record<string, string>): string[] => {
  const loaded: LoadedSpecs = { project: null, resources: [], problems: [] };
  const parsed = parseSpecFile("specs/hashapi.yaml", project);
  if (parsed.problems.length > 0) return parsed.problems.map((problem) => problem.message);
  loaded.project = parsed.loaded;
  for (const [file, text] of Object.entries(resources)) {
    const resource = parseSpecFile(`specs/${file}.yaml`, text);
    if (resource.problems.length > 0) return resource.problems.map((problem) => problem.message);
    loaded.resources.push(resource.loaded);
  }
  return validateSpecs(loaded).problems.map((problem) => `${problem.file}: ${problem.message}`);
};

describe("tenancy (hashapi.yaml) and tenant: (resources)", () => {
  it("accepts tenanted, via and global resources, and tenant roles in role lists", () => {
    const application = "name: Application\nfields:\n  email: { type: email, unique: global, visibleTo: [owner, manager] }\nrelations:\n  job: { type: belongsTo, resource: Job, required: true }\ntenant: { via: job }\nauth:\n  roles: { destroy: [owner] }\n";
    const country = "name: Country\ntenant: global\nfields:\n  name: { type: string }\nauth:\n  roles: { store: [staff] }\n";
    expect(problemsOf(tenancy, { agency, job: job(), application, country })).toEqual([]);
  });

  it("refuses a resource that says nothing of its tenant: nothing is shared by accident", () => {
    expect(problemsOf(tenancy, { agency, job: job("") }).join("\n")).toContain("Job must say whose records these are in a tenanted project: tenant: true");
  });

  it("refuses a via chain that can be null unless declared, that is not a belongsTo, or that ends outside tenants", () => {
    const optional = "name: Application\nfields:\n  email: { type: email }\nrelations:\n  job: { type: belongsTo, resource: Job }\ntenant: { via: job }\n";
    expect(problemsOf(tenancy, { agency, job: job(), application: optional }).join("\n")).toContain("Application.job may be null");
    expect(problemsOf(tenancy, { agency, job: job(), application: optional.replace("{ via: job }", "{ via: job, nullable: true }") })).toEqual([]);
    expect(problemsOf(tenancy, { agency, job: job(), application: optional.replace("{ via: job }", "{ via: jobb }") }).join("\n")).toContain('"jobb" is not a belongsTo of Application');
    const country = "name: Country\ntenant: global\nfields:\n  name: { type: string }\n";
    const city = "name: City\nfields:\n  name: { type: string }\nrelations:\n  country: { type: belongsTo, resource: Country, required: true }\ntenant: { via: country }\n";
    expect(problemsOf(tenancy, { agency, country, city }).join("\n")).toContain("ends at Country, which belongs to no tenant");
  });

  it("keeps global resources from pointing at a tenant's records, and their writes to bypass roles", () => {
    const country = "name: Country\ntenant: global\nfields:\n  name: { type: string }\nrelations:\n  job: { type: belongsTo, resource: Job }\nauth:\n  roles: { update: [user] }\n";
    const problems = problemsOf(tenancy, { agency, job: job(), country }).join("\n");
    expect(problems).toContain("a shared record cannot point at one");
    expect(problems).toContain("only tenancy.bypass roles (staff) write it");
  });

  it("names tenant roles in a tenanted resource's role lists, and refuses public actions there", () => {
    const problems = problemsOf(tenancy, { agency, job: job("tenant: true\nauth:\n  public: [index]\n  roles: { store: [staff] }\n") }).join("\n");
    expect(problems).toContain('unknown role "staff" (hashapi.yaml tenancy.roles: owner, manager, member)');
    expect(problems).toContain("a caller without a token is in none");
  });

  it("refuses tenancy's own mistakes, and tenant settings without tenancy", () => {
    const typo = tenancy.replace("resource: Agency", "resource: Agncy").replace("bypass: [staff]", "bypass: [owner]");
    const problems = problemsOf(typo, { agency, job: job() }).join("\n");
    expect(problems).toContain('unknown resource "Agncy"');
    expect(problems).toContain('"owner" is not one of auth.roles (staff, user): bypass names platform roles');
    expect(problemsOf("name: x\n", { job: job() }).join("\n")).toContain("tenant: needs tenancy in hashapi.yaml");
    expect(problemsOf("name: x\n", { job: job("").replace("unique: true", "unique: global") }).join("\n")).toContain("unique: global needs tenancy");
    expect(problemsOf(tenancy, { agency: `${agency}tenant: true\n`, job: job() }).join("\n")).toContain("Agency is tenancy.resource: its records are the tenants");
  });
});

describe("names a tenanted table keeps for itself", () => {
  it("refuses a field tenant_id and a belongsTo named tenant, and store roles on the tenant resource", () => {
    const problems = problemsOf(tenancy, { agency: `${agency}auth:\n  roles: { store: [owner] }\n`, job: "name: Job\ntenant: true\nfields:\n  tenant_id: { type: integer }\nrelations:\n  tenant: { type: belongsTo, resource: Agency }\n" }).join("\n");
    expect(problems).toContain("tenant_id holds each Job's tenant");
    expect(problems).toContain("a belongsTo named tenant would be stored in tenant_id");
    expect(problems).toContain("a new one is made by a platform role of tenancy.create");
  });
});

describe("collections the service's own routes hold", () => {
  it("refuses a resource at /api/members with tenancy, at /api/jobs with jobs, at /api/webhooks with webhooks", () => {
    const member = "name: Member\ntenant: true\nfields:\n  name: { type: string }\n";
    expect(problemsOf(tenancy, { agency, member }).join("\n")).toContain('collection "members" is taken: /api/members are a tenant\'s members');
    const jobs = `${tenancy}jobs:\n  peek: {}\n`;
    const task = (extra: string) => `name: Task\ntenant: true\nfields:\n  title: { type: string }\n${extra}`;
    expect(problemsOf(jobs, { agency, task: task("collection: jobs\n") }).join("\n")).toContain('collection "jobs" is taken: /api/jobs lists the service\'s jobs');
    expect(problemsOf(jobs, { agency, task: task("") })).toEqual([]);
    // With jobs, Job is openapi.json's schema of /api/jobs too.
    expect(problemsOf(jobs, { agency, job: job("tenant: true\ncollection: openings\n") }).join("\n")).toContain('"Job" is the schema of /api/jobs\'s entries');
    const webhook = "name: Webhook\nfields:\n  url: { type: string }\n";
    const hooks = 'webhooks:\n  - { name: crm, url: "${CRM_URL}", secret: "${CRM_SECRET}", events: ["*"] }\n';
    expect(problemsOf(hooks, { webhook }).join("\n")).toContain('collection "webhooks" is taken');
  });
});
