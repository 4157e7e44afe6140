import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execa } from "execa";
import { fuzzProject } from "../support/fuzz-project.js";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { prepareProject, repo, run, type Project } from "../support/service.js";

/**
 * Issue 49: the fuzz suite on a tenanted project (test/fixtures/tenancy), seeded with two tenants.
 * Its users are members of the first, one per tenant role, beside a user of each platform role;
 * every request names the first tenant, none, the second, or garbage (X-Tenant). Beyond the fuzz's
 * own checks: no answer holds a record of the second tenant, and a tenant's route named without the
 * first tenant refuses before it reads anything. FUZZ_SEED and FUZZ_RUNS as for test/e2e/fuzz.test.ts.
 * First, the project's own generated tests pass on that database, as members of one tenant with a
 * second tenant's records present.
 */
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.CI ? 20261129 : Date.now() % 2 ** 31;
const runs = Number(process.env.FUZZ_RUNS ?? 1500);
const specs = join(repo, "test/fixtures/tenancy");
// The member's webhook reaches the fuzz's sink (heard as the member's); the first agency's goes nowhere.
const webhookEnv = { TENANCY_MEMBER_URL: "sink:/member", TENANCY_FIRST_URL: "http://127.0.0.1:9/first", TENANCY_HOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", TENANCY_FIRST_AGENCY: "AGY_22222222" };

describe.each(databaseTargets)("fuzzing a tenanted project on $label", ({ database }) => {
  let project: Project;
  let postgres: PostgresServer | undefined;
  /** Where the project's own tests make their databases (PostgreSQL: a database of their own). */
  let testEnv: Record<string, string> = {};

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("tenancy_fuzz");
      await postgres.createDatabase("tenancy_fuzz_test");
      databaseUrl = postgres.url("tenancy_fuzz");
      testEnv = { TEST_DATABASE_URL: postgres.url("tenancy_fuzz_test") };
    }
    project = await prepareProject({ name: `e2e-tenancy-fuzz-${database}`, database, databaseUrl, specs, adminRole: "staff" });
    await run("npm", ["run", "db:seed", "--silent", "--", "--count", "8", "--tenants", "2"], project.dir, project.env);
  }, 300_000);

  afterAll(async () => {
    await project?.cleanup();
    await postgres?.destroy();
  });

  it("passes its own generated tests, as members of one tenant beside another", async () => {
    const vitest = join(repo, "node_modules/vitest/vitest.mjs");
    const own = await execa(process.execPath, [vitest, "run"], { cwd: project.dir, reject: false, all: true, env: { CI: "true", ...project.env, ...testEnv } });
    const report = String(own.all).replace(/\x1b\[[0-9;]*m/g, "");
    expect(own.exitCode, report.slice(-3000)).toBe(0);
    // Each tenanted resource has its cross-tenant test (agency, application, opening, skill); with
    // mail, the account flows (2) and the invitations into an agency (1).
    expect(report).toMatch(/Tests\s+114 passed \| 4 skipped \(118\)/);
  }, 300_000);

  it(`answers ${runs} hostile requests in two tenants without a leak across them (seed ${seed})`, async () => {
    const fuzzed = await fuzzProject(project.dir, { ...project.env, ...webhookEnv }, { seed, runs, name: "recruiting-api", specs });
    const { totals } = fuzzed.session;
    console.log(`tenancy fuzz on ${database}: ${totals.requests} requests, by status ${JSON.stringify(totals.byStatus)}, outside the tenant ${JSON.stringify(totals.outsideTenant)}; exits compared ${JSON.stringify(fuzzed.exits)}`);
    expect(fuzzed.problems).toEqual([]);
    // The member's webhook heard the fuzz's own tenant, and each body was held against a member's show.
    expect(fuzzed.exits!.webhookBodies).toBeGreaterThan(0);
    // The tenant's routes were reached without the tenant, and refused.
    expect(Object.keys(totals.outsideTenant).length).toBeGreaterThan(0);
  }, 900_000);
});
