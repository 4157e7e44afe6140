import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = new URL("../..", import.meta.url).pathname;
const cli = join(repo, "bin/hashapi.js");
const exampleSpecs = join(repo, "specs");

async function hashapi(args: string[], cwd = repo) {
  const result = await execa(process.execPath, [cli, ...args], { cwd, reject: false, env: { NO_COLOR: "1" } });
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "hashapi-cli-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function freshDir(name: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

function expectNoStackTrace(text: string) {
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

describe("usage", () => {
  it.each(["generate", "validate", "add-resource", "init", "migrate"])("%s --help shows examples and exits 0", async (command) => {
    const result = await hashapi([command, "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: hashapi ${command}`);
    expect(result.stdout).toContain("Examples:");
  });

  it("prints help and exits 2 without a command", async () => {
    const result = await hashapi([]);
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).toContain("Usage: hashapi");
  });

  it.each([
    [["frobnicate"], "unknown command 'frobnicate'"],
    [["generate", "--bogus"], "unknown option '--bogus'"],
    [["add-resource"], "missing required argument 'name'"],
    [["generate", "--check", "--dry-run"], "cannot be used with option"],
    [["add-resource", "Bad Name!", "--specs", "x"], "is not a resource name"],
    [["add-resource", "notes", "--fields", "title:strin"], 'unknown type "strin"'],
  ])("%j is a usage error (exit 2)", async (args, message) => {
    const result = await hashapi(args, work);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expectNoStackTrace(result.stderr);
  });

  it("--version prints the package version", async () => {
    const { version } = JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as { version: string };
    const result = await hashapi(["--version"]);
    expect(result).toMatchObject({ code: 0, stdout: version });
  });
});

describe("validate", () => {
  it("accepts the example clinic", async () => {
    const result = await hashapi(["validate", "specs"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("specs: 5 resources, valid.");
  });

  it("reports every problem with file, line and column, exit 1, no stack trace", async () => {
    const specs = await freshDir("broken-specs");
    await writeFile(
      join(specs, "loan.yaml"),
      ["name: Loan", "fields:", "  amount: { type: decimal, precision: 8, scale: 2 }", "relations:", "  member:", "    type: belongsTo", "    resource: Memberz", ""].join("\n"),
    );
    await writeFile(join(specs, "member.yaml"), ["name: Member", "fields:", "  name: { type: string, maxx: 80 }", ""].join("\n"));
    const result = await hashapi(["validate", relative(work, specs)], work);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('broken-specs/loan.yaml:7:15 relations.member.resource: unknown resource "Memberz" (did you mean "Member"?)');
    expect(result.stderr).toContain('broken-specs/member.yaml:3:25 fields.name.maxx: unknown key "maxx" (did you mean "max"?)');
    expectNoStackTrace(result.stderr);
  });

  it("names a missing folder", async () => {
    const result = await hashapi(["validate", "no-such-specs"], work);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("no-such-specs");
    expectNoStackTrace(result.stderr);
  });
});

describe("generate", () => {
  let out: string;
  beforeAll(async () => {
    out = join(work, "out");
    const result = await hashapi(["generate", exampleSpecs, "--out", out]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  }, 120_000);

  it("writes the project, the manifest and the first migration", async () => {
    const files = await listFiles(out);
    expect(files).toContain("hashapi.manifest.json");
    expect(files).toContain("prisma/schema.prisma");
    expect(files).toContain("prisma/migrations/0001_init/migration.sql");
    expect(files).toContain("src/custom/patient/patient.controller.ts");
  });

  it("gives identical bytes in two directories", async () => {
    const second = join(work, "out-2");
    expect((await hashapi(["generate", exampleSpecs, "--out", second])).code).toBe(0);
    const files = await listFiles(out);
    expect(await listFiles(second)).toEqual(files);
    for (const file of files) {
      expect(await readFile(join(second, file), "utf8"), file).toBe(await readFile(join(out, file), "utf8"));
    }
  }, 120_000);

  it("writes no file when nothing changed", async () => {
    const before = await mtimes(out);
    const result = await hashapi(["generate", exampleSpecs, "--out", out]);
    expect(result.code).toBe(0);
    expect(await mtimes(out)).toEqual(before);
  });

  it("--check passes on fresh output, fails naming a hand-edited generated file, ignores edits of user files", async () => {
    expect((await hashapi(["generate", exampleSpecs, "--out", out, "--check"])).code).toBe(0);

    const userFile = join(out, "src/custom/patient/patient.policy.ts");
    await writeFile(userFile, `${await readFile(userFile, "utf8")}\n// my change\n`);
    expect((await hashapi(["generate", exampleSpecs, "--out", out, "--check"])).code).toBe(0);

    const generatedFile = join(out, "src/app.ts");
    const original = await readFile(generatedFile, "utf8");
    await writeFile(generatedFile, original.replace("e", "E"));
    const drift = await hashapi(["generate", exampleSpecs, "--out", out, "--check"]);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain("src/app.ts");
    expect(drift.stdout).toContain("--- a/src/app.ts");
    await writeFile(generatedFile, original);
  });

  it("regeneration keeps user-owned edits and restores generated files", async () => {
    const userFile = join(out, "src/custom/patient/patient.controller.ts");
    const mine = `${await readFile(userFile, "utf8")}\n// kept across regenerations\n`;
    await writeFile(userFile, mine);
    await writeFile(join(out, "src/app.ts"), "// broken by hand\n");
    expect((await hashapi(["generate", exampleSpecs, "--out", out])).code).toBe(0);
    expect(await readFile(userFile, "utf8")).toBe(mine);
    expect(await readFile(join(out, "src/app.ts"), "utf8")).not.toBe("// broken by hand\n");
  });

  it("--dry-run lists the changes and writes nothing", async () => {
    const target = join(work, "dry");
    const result = await hashapi(["generate", exampleSpecs, "--out", target, "--dry-run"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Dry run: nothing is written\./);
    expect(result.stdout).toMatch(/create\s+src\/app\.ts/);
    expect(result.stdout).toMatch(/SQL of prisma\/migrations\/0001_init\/migration\.sql:\n[\s\S]*CREATE TABLE "patients"/);
    await expect(stat(target)).rejects.toThrow();
  });

  it("refuses a non-empty directory that is not a hashapi output, unless --force", async () => {
    const foreign = await freshDir("foreign");
    await writeFile(join(foreign, "notes.txt"), "mine");
    const refused = await hashapi(["generate", exampleSpecs, "--out", foreign]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--force");
    expectNoStackTrace(refused.stderr);
    expect(await listFiles(foreign)).toEqual(["notes.txt"]);

    expect((await hashapi(["generate", exampleSpecs, "--out", foreign, "--force"])).code).toBe(0);
    expect(await readFile(join(foreign, "notes.txt"), "utf8")).toBe("mine");
  });

  it("writes the next migration when a spec changes, and --check flags an uncovered schema", async () => {
    const specs = join(work, "evolving-specs");
    await cp(exampleSpecs, specs, { recursive: true });
    const target = join(work, "evolving-out");
    expect((await hashapi(["generate", specs, "--out", target])).code).toBe(0);

    const doctor = join(specs, "doctor.yaml");
    await writeFile(doctor, (await readFile(doctor, "utf8")).replace("fields:\n", "fields:\n  phone: { type: string, max: 20, nullable: true }\n"));
    const stale = await hashapi(["generate", specs, "--out", target, "--check"]);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain("no migration covers");

    const result = await hashapi(["generate", specs, "--out", target, "--migration-name", "add doctor phone"]);
    expect(result.code).toBe(0);
    const sql = await readFile(join(target, "prisma/migrations/0002_add_doctor_phone/migration.sql"), "utf8");
    expect(sql).toContain('ADD COLUMN "phone"');
    expect(await readFile(join(target, "prisma/migrations/0001_init/migration.sql"), "utf8")).not.toContain('"phone" TEXT,\n    "crm"');
    expect((await hashapi(["generate", specs, "--out", target, "--check"])).code).toBe(0);
  }, 120_000);
});

describe("generate --typecheck", () => {
  it("reports a user-owned override broken by a spec change, with file and line (exit 1)", async () => {
    // Inside the repository, so the project's dependencies resolve from the workspace.
    const target = join(repo, ".tmp", `typecheck-${process.pid}`);
    const specs = join(work, "typecheck-specs");
    await rm(target, { recursive: true, force: true });
    await cp(exampleSpecs, specs, { recursive: true });
    await cp(join(repo, "generated/src/custom"), join(target, "src/custom"), { recursive: true });
    try {
      // From a folder with no node_modules around it: the project's own types are found all the same.
      const first = await hashapi(["generate", specs, "--out", target, "--force", "--typecheck"], work);
      expect(first.stdout, first.stderr).toContain("Type check passed.");
      const spec = join(specs, "medical-record.yaml");
      await writeFile(spec, (await readFile(spec, "utf8")).replace("summary: { type: text, max: 5000 }", "notes: { type: text, max: 5000, renamedFrom: summary }"));
      const broken = await hashapi(["generate", specs, "--out", target, "--typecheck", "--migration-name", "rename summary"]);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/^src\/custom\/medical-record\/medical-record\.policy\.ts:\d+:\d+ \(your file\) Property 'summary' does not exist/m);
      expect(broken.stderr).toContain("Your files under src/custom/ no longer fit the generated code");
      expectNoStackTrace(broken.stderr);
    } finally {
      await rm(target, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("generate --verbose", () => {
  it("says each step and the whole run with its time on stderr, the usual report on stdout", async () => {
    const out = await freshDir("verbose-out");
    const first = await hashapi(["generate", exampleSpecs, "--out", out, "--force", "--verbose"]);
    expect(first.code, first.stderr).toBe(0);
    for (const label of ["reading and validating the specs", "computing the migration (prisma migrate diff)", "rendering and formatting the project", "writing the files that changed", "generate, in all"])
      expect(first.stderr).toMatch(new RegExp(`^✓ ${label.replace(/[()]/g, "\\$&")} \\(\\d+ ms\\)$`, "m"));
    expect(first.stdout).not.toContain("✓ ");
    // Right after a clean run, its record stands in for rendering (src/pipeline/clean-record.ts).
    const check = await hashapi(["generate", exampleSpecs, "--out", out, "--check", "--verbose"]);
    expect(check.code).toBe(0);
    expect(check.stderr).toMatch(/^✓ comparing with the record of the last clean run \(\d+ ms\)$/m);
    expect(check.stderr).not.toContain("rendering and formatting the project");
  }, 120_000);
});

describe("add-resource and init", () => {
  it("writes a spec from --fields that validates, then refuses to overwrite it", async () => {
    const specs = await freshDir("scaffold-specs");
    await cp(join(exampleSpecs, "hashapi.yaml"), join(specs, "hashapi.yaml"));
    const created = await hashapi(["add-resource", "lab-results", "--fields", "code:string:unique:max=20,value:decimal:precision=8:scale=3,notes:text:nullable", "--specs", specs]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("lab-result.yaml");
    expect(created.stdout).toContain("hashapi generate");
    expect(await readFile(join(specs, "lab-result.yaml"), "utf8")).toContain("name: LabResult");
    expect((await hashapi(["validate", specs])).code).toBe(0);

    const again = await hashapi(["add-resource", "LabResult", "--specs", specs]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
  });

  it("writes the hasMany side with --inverse (one line in the target's spec), and its help lists every type and modifier", async () => {
    const specs = await freshDir("inverse-specs");
    await cp(exampleSpecs, specs, { recursive: true });
    const before = await readFile(join(specs, "patient.yaml"), "utf8");
    const created = await hashapi(["add-resource", "comments", "--fields", "body:text:search,score:integer:default=3:index", "--belongs-to", "patient,author:User", "--inverse", "--specs", specs]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(`Added comments (hasMany Comment) to ${join(specs, "patient.yaml")}.`);
    const after = await readFile(join(specs, "patient.yaml"), "utf8");
    // Every byte the author wrote is kept: one line more, after the last relation.
    expect(after.split("\n").filter((line) => !before.split("\n").includes(line))).toEqual(["  comments: { type: hasMany, resource: Comment }"]);
    expect(after.split("\n")).toHaveLength(before.split("\n").length + 1);
    expect(await readFile(join(specs, "comment.yaml"), "utf8")).toContain("score: { type: integer, default: 3, index: true }");
    expect((await hashapi(["validate", specs])).code).toBe(0);
    const help = (await hashapi(["add-resource", "--help"])).stdout;
    for (const word of ["uuid", "json", "index", "search", "default=V", "--has-many", "--inverse"]) expect(help).toContain(word);
  });

  it("writes a commented template without --fields, which validates", async () => {
    const specs = await freshDir("template-specs");
    expect((await hashapi(["add-resource", "medical-records", "--specs", specs])).code).toBe(0);
    const text = await readFile(join(specs, "medical-record.yaml"), "utf8");
    expect(text).toContain("name: MedicalRecord");
    expect(text).toContain("# softDelete: true");
    expect((await hashapi(["validate", specs])).code).toBe(0);
  });

  it("init creates a specs folder that generates, and refuses an existing one", async () => {
    const specs = join(work, "init-project", "specs");
    const result = await hashapi(["init", specs]);
    expect(result.code).toBe(0);
    expect(await listFiles(specs)).toEqual(["hashapi.yaml", "note.yaml"]);
    expect(result.stdout).toContain(`hashapi generate ${specs}  `);
    expect(result.stdout).not.toContain("--out");
    expect((await hashapi(["validate", specs])).code).toBe(0);
    expect((await hashapi(["init", specs])).code).toBe(1);
  });
});

describe("one output folder: out: in hashapi.yaml", () => {
  it("is where generate, --check and migrate read and write, from any working directory; --out overrides it", async () => {
    const project = await freshDir("out-setting");
    await hashapi(["init", "specs"], project);
    expect(await readFile(join(project, "specs/hashapi.yaml"), "utf8")).toMatch(/^out: api /m);

    const first = await hashapi(["generate"], project);
    expect(first.code, first.stderr).toBe(0);
    expect(await listFiles(join(project, "api"))).toContain("README.md");
    expect(first.stdout).toMatch(/Next steps:\n {2}cd api\n {2}npm install\n {2}npm run db:migrate\n {2}npm run user:create -- --name "Ada Admin"[^\n]*\n {2}npm run dev/);
    // From another folder, naming the specs: still api/ next to them, and nothing stray in the cwd.
    const elsewhere = await freshDir("out-setting-elsewhere");
    const check = await hashapi(["generate", join(project, "specs"), "--check"], elsewhere);
    expect(check.code, check.stdout).toBe(0);
    expect(await readdir(elsewhere)).toEqual([]);

    await writeFile(join(project, "specs/note.yaml"), (await readFile(join(project, "specs/note.yaml"), "utf8")).replace("fields:\n", "fields:\n  color: { type: string, nullable: true }\n"));
    const again = await hashapi(["generate"], project);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("New migration prisma/migrations/0002_update: a running `npm run dev` applies it; else run `npm run db:migrate` in api (safe while the server runs).");
    expect(again.stdout).not.toContain("Next steps");
    expect((await hashapi(["migrate"], project)).stdout).toContain("The migrations already cover the schema");

    const override = await hashapi(["generate", "--out", "other"], project);
    expect(override.code).toBe(0);
    expect(await listFiles(join(project, "other"))).toContain("hashapi.manifest.json");
  }, 120_000);
});

async function mtimes(dir: string): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const file of await listFiles(dir)) result[file] = (await stat(join(dir, file))).mtimeMs;
  return result;
}
