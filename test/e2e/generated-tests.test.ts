import { cp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repo, run } from "../support/service.js";

/**
 * The tests a generated project ships (test/*.test.ts) follow the project's own policies: an action
 * the policy refuses the tester is expected to answer 403, and records are made through the service
 * layer, so a refused `store` leaves the other actions testable. And they still catch a refusal the
 * policy did not decide.
 */
const dir = join(repo, ".tmp", `generated-tests-${process.pid}`);
const vitest = join(repo, "node_modules/vitest/vitest.mjs");

async function patientSuite(): Promise<{ exitCode: number | undefined; all: string }> {
  const result = await execa(process.execPath, [vitest, "run", "test/patient.test.ts"], { cwd: dir, reject: false, all: true, env: { CI: "true" } });
  // Vitest colours its report when its parent did: compare the text.
  return { exitCode: result.exitCode, all: String(result.all).replace(/\x1b\[[0-9;]*m/g, "") };
}

describe("the generated project's own tests", () => {
  beforeAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await cp(join(repo, "generated/src/custom"), join(dir, "src/custom"), { recursive: true });
    await run(process.execPath, [join(repo, "bin/hashapi.js"), "generate", join(repo, "specs"), "--out", dir, "--force"], repo, {});
  }, 120_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("expect 403 where the project's policy refuses the tester, and pass", async () => {
    await writeFile(
      join(dir, "src/custom/patient/patient.policy.ts"),
      `import type { CurrentUser } from "../../auth/auth.service.js";
import { ResourcePolicy } from "../../resource/policy.js";
import type { PatientRow } from "../../resources/patient/patient.repository.js";

/** Patients are created by the intake system only, and never deleted nor restored through the API. */
export class PatientPolicy extends ResourcePolicy<PatientRow> {
  override store(_user: CurrentUser | undefined): boolean {
    return false;
  }
  override destroy(_user: CurrentUser | undefined, _record: PatientRow): boolean {
    return false;
  }
}
`,
    );
    const result = await patientSuite();
    expect(result.exitCode, result.all).toBe(0);
    expect(result.all).toMatch(/Tests\s+9 passed/);
  }, 180_000);

  it("still fail when the service refuses what the policy allows", async () => {
    await writeFile(
      join(dir, "src/custom/patient/patient.policy.ts"),
      `import { ResourcePolicy } from "../../resource/policy.js";
import type { PatientRow } from "../../resources/patient/patient.repository.js";

export class PatientPolicy extends ResourcePolicy<PatientRow> {}
`,
    );
    // A hook that refuses every update, behind the policy's back.
    await writeFile(
      join(dir, "src/custom/patient/patient.controller.ts"),
      `import type { Request } from "express";
import { Forbidden } from "../../lib/errors.js";
import { PatientControllerBase } from "../../resources/patient/patient.controller.base.js";
import type { PatientRow } from "../../resources/patient/patient.repository.js";

export class PatientController extends PatientControllerBase {
  protected override beforeUpdate(_req: Request, _record: PatientRow): void {
    throw new Forbidden();
  }
}
`,
    );
    const result = await patientSuite();
    expect(result.exitCode).not.toBe(0);
    expect(result.all).toContain("updates only the sent fields with PUT and PATCH");
    expect(result.all).toMatch(/expected 403 to be 200/);
  }, 180_000);
});
