import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildAdminManifest } from "../../src/emit/admin-manifest.js";
import { buildModel } from "../../src/model/build.js";
import { loadSpecsDir } from "../../src/spec/load.js";
import { validateSpecs } from "../../src/spec/validate.js";
import { adminViewFor, allows } from "../../runtime/common/src/admin/admin-manifest.js";

/**
 * The admin's manifest (src/admin/admin.json) from the example's specs, and each role's view of it
 * (GET /api/admin/manifest): what the pages may show and offer is what the specs say, per role.
 */
const repo = new URL("../..", import.meta.url).pathname;

async function manifestOf(specsDir: string) {
  const { specs } = validateSpecs(await loadSpecsDir(`${repo}${specsDir}`));
  if (!specs) throw new Error(`${specsDir} does not validate`);
  return buildAdminManifest(buildModel(specs, `${specsDir}/`));
}

describe("the admin's manifest", () => {
  it("describes each resource's fields with the inputs its compiled payload schemas allow", async () => {
    const manifest = await manifestOf("specs");
    const records = manifest.resources.find((resource) => resource.collection === "medical-records")!;
    expect(records).toMatchObject({ label: "Medical records", singular: "medical record", idKey: "public_id", audit: true, softDelete: false });
    const weight = records.fields.find((field) => field.key === "weight_kg")!;
    expect(weight).toMatchObject({ type: "decimal", nullable: true, output: true, create: { step: "0.01" } });
    expect(records.fields.find((field) => field.key === "diagnosis")).toMatchObject({ visibleTo: ["admin", "doctor"], writableBy: ["doctor"] });
    expect(records.fields.find((field) => field.key === "patient")).toMatchObject({ type: "belongsTo", target: "patients", create: { required: true } });
    const patients = manifest.resources.find((resource) => resource.collection === "patients")!;
    expect(patients.fields.find((field) => field.key === "name")).toMatchObject({ create: { required: true, maxLength: 120, minLength: 1 }, update: { maxLength: 120, minLength: 1 }, sortable: true });
    expect(patients.actions).toEqual({ index: "all", store: "all", show: "all", update: "all", destroy: ["admin"], restore: ["admin"] });
    expect(patients.references).toEqual([
      { collection: "appointments", label: "Appointments", onDelete: "restrict" },
      { collection: "medical-records", label: "Medical records", onDelete: "restrict" },
    ]);
    expect(patients.titles).toEqual(["name", "cpf", "phone"]);
    const doctors = manifest.resources.find((resource) => resource.collection === "doctors")!;
    expect(doctors.links.find((link) => link.key === "specialties")).toMatchObject({ kind: "belongsToMany", target: "specialties", pivot: [{ key: "since", type: "date", nullable: true }] });
    // A hidden relation the payload still takes: written, never shown.
    expect(doctors.fields.find((field) => field.key === "user")).toMatchObject({ type: "belongsTo", output: false, create: {} });
    // /api/users, for its managers: the password is an input, never a column.
    const users = manifest.resources.find((resource) => resource.collection === "users")!;
    expect(users.fields.find((field) => field.key === "password")).toMatchObject({ type: "password", output: false, create: { required: true, minLength: 8 } });
  });

  it("gives each role its own view: hidden fields' very names absent, writes only where allowed", async () => {
    const manifest = await manifestOf("specs");
    const receptionist = adminViewFor(manifest, "receptionist");
    expect(receptionist.resources.map((resource) => resource.collection)).toEqual(["appointments", "doctors", "patients", "specialties"]);
    expect(JSON.stringify(receptionist)).not.toMatch(/notes|diagnosis|visibleTo|writableBy|medical-records|"users"/);
    expect(receptionist.resources.find((resource) => resource.collection === "patients")!.actions).toEqual({ index: "all", store: "all", show: "all", update: "all" });
    const admin = adminViewFor(manifest, "admin");
    const diagnosis = admin.resources.find((resource) => resource.collection === "medical-records")!.fields.find((field) => field.key === "diagnosis")!;
    expect(diagnosis).not.toHaveProperty("create");
    expect(diagnosis).not.toHaveProperty("update");
    const doctor = adminViewFor(manifest, "doctor");
    expect(doctor.resources.find((resource) => resource.collection === "medical-records")!.fields.find((field) => field.key === "diagnosis")).toHaveProperty("update");
    expect(doctor.resources.some((resource) => resource.collection === "users")).toBe(false);
    expect(adminViewFor(manifest, "nobody").resources.map((resource) => resource.collection)).toEqual(["appointments", "doctors", "patients", "specialties"]);
  });

  it("opens the jobs screen wherever /api/jobs exists: the project's jobs, files' or mail's", async () => {
    expect((await manifestOf("specs")).extras).not.toHaveProperty("jobs");
    expect((await manifestOf("test/fixtures/files")).extras).toMatchObject({ jobs: "admin" });
    // The example with the accounts fixture's hashapi.yaml (mail): its mail job.
    const dir = await mkdtemp(join(tmpdir(), "admin-mail-"));
    try {
      await cp(`${repo}specs`, dir, { recursive: true });
      await cp(`${repo}test/fixtures/accounts/hashapi.yaml`, join(dir, "hashapi.yaml"));
      const { specs } = validateSpecs(await loadSpecsDir(dir));
      expect(specs && buildAdminManifest(buildModel(specs, "specs/")).extras).toMatchObject({ jobs: "admin", invitations: ["admin", "doctor"] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("opens the screens beside the resources to their roles only", async () => {
    const manifest = await manifestOf("test/fixtures/tenancy");
    expect(manifest.extras).toMatchObject({ deliveries: "staff", jobs: "staff", tenancy: { collection: "agencies", label: "Agency" } });
    expect(adminViewFor(manifest, "staff").extras).toMatchObject({ deliveries: "staff", jobs: "staff" });
    expect(adminViewFor(manifest, "user").extras).not.toHaveProperty("deliveries");
    expect(adminViewFor(manifest, "user").extras).not.toHaveProperty("jobs");
    expect([allows("public", "x"), allows("all", "x"), allows(["a"], "x"), allows(["x"], "x"), allows(undefined, "x"), allows("all", [])]).toEqual([true, true, false, true, false, false]);
    // A tenant's records: only while the caller works in a tenant, as their role there allows.
    const collections = (view: { resources: readonly { collection: string }[] }) => view.resources.map((resource) => resource.collection);
    expect(collections(adminViewFor(manifest, "user"))).toEqual(["agencies", "countries"]);
    // The tenants themselves: created on the platform, listed and changed inside one (X-Tenant).
    expect(adminViewFor(manifest, "user").resources[0]!.actions).toEqual({ store: "all" });
    expect(Object.keys(adminViewFor(manifest, "user", "owner").resources[0]!.actions).sort()).toEqual(["destroy", "index", "show", "store", "update"]);
    expect(collections(adminViewFor(manifest, "user", "member"))).toEqual(["agencies", "applications", "countries", "openings", "skills"]);
    const openings = (role: string) => adminViewFor(manifest, "user", role).resources.find((resource) => resource.collection === "openings")!;
    expect(openings("member").fields.map((field) => field.key)).not.toContain("budget");
    expect(openings("owner").fields.map((field) => field.key)).toContain("budget");
    expect(openings("member").actions).not.toHaveProperty("store");
    expect(adminViewFor(manifest, "user", "member").extras).toMatchObject({ members: true, tenancy: { roles: ["owner", "manager", "member"] } });
  });
});
