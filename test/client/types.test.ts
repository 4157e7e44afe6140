import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The typed client's types, pinned by compiling fixtures with the TypeScript compiler (issue 34):
 * the calls of test/client/types/valid.ts compile, each marked line of test/client/must-fail/ does
 * not (with the message it names), and a spec change that breaks a caller's code breaks its build.
 */
const repo = new URL("../..", import.meta.url).pathname;
const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  noEmit: true,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  types: [],
};

/** Each diagnostic of `files`, as file:line → messages. */
function diagnosticsOf(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(files, options);
  const found = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const line = diagnostic.file ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1 : 0;
    const key = `${diagnostic.file?.fileName ?? "?"}:${line}`;
    found.set(key, [...(found.get(key) ?? []), ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")]);
  }
  return found;
}

mkdirSync(join(repo, ".tmp"), { recursive: true });
const scratch = mkdtempSync(join(repo, ".tmp", "client-types-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the example client's types", () => {
  it("compile every call of the valid fixture", () => {
    expect([...diagnosticsOf([join(repo, "test/client/types/valid.ts")])]).toEqual([]);
  });

  it("refuse each marked call of the must-fail fixture, with its message, and nothing else", () => {
    const file = join(repo, "test/client/must-fail/calls.ts");
    const found = diagnosticsOf([file]);
    const lines = readFileSync(file, "utf8").split("\n");
    const expected = lines.flatMap((text, index) => {
      const mark = /\/\/ error: (.+)$/.exec(text);
      return mark ? [[`${file}:${index + 1}`, mark[1]!] as const] : [];
    });
    expect(expected.length).toBeGreaterThanOrEqual(10);
    for (const [at, text] of expected) {
      expect(found.get(at), `${at} should not compile`).toBeDefined();
      expect(found.get(at)!.join("\n"), at).toContain(text);
    }
    const unexpected = [...found.keys()].filter((at) => !expected.some(([line]) => line === at));
    expect(unexpected.map((at) => `${at}: ${found.get(at)!.join(" / ")}`)).toEqual([]);
  });
});

describe("the client in lock-step with the specs", () => {
  it("turns a renamed field into a compile error in the caller's code", () => {
    const specs = join(scratch, "specs");
    cpSync(join(repo, "specs"), specs, { recursive: true });
    const patient = join(specs, "patient.yaml");
    writeFileSync(
      patient,
      readFileSync(patient, "utf8")
        .replace(/^  name: /m, "  full_name: ")
        .replaceAll(/^    name: /gm, "    full_name: "),
    );
    execFileSync(process.execPath, [join(repo, "bin/hashapi.js"), "generate", specs, "--out", join(scratch, "renamed")], { stdio: "pipe" });
    const caller = (client: string) => `import { createClient, unwrap } from "${client}";
export async function call() {
  const api = createClient({ baseUrl: "http://127.0.0.1:3000" });
  const patient = unwrap(await api.patients.create({ name: "Maria", cpf: "12345678901" }));
  return patient.name;
}
`;
    const before = join(scratch, "before.ts");
    const after = join(scratch, "after.ts");
    writeFileSync(before, caller(join(repo, "generated/client/src/index.js")));
    writeFileSync(after, caller(join(scratch, "renamed/client/src/index.js")));
    expect([...diagnosticsOf([before])]).toEqual([]);
    const broken = [...diagnosticsOf([after])].map(([at, messages]) => [at.slice(at.lastIndexOf(":") + 1), messages.join(" ")]);
    expect(broken.map(([line]) => line)).toEqual(["4", "5"]);
    expect(broken[0]![1]).toContain("'name' does not exist in type 'PatientCreate'");
    expect(broken[1]![1]).toContain("Property 'name' does not exist");
  });
});

describe("a tenanted project's client (test/fixtures/tenancy)", () => {
  it("types the members' routes and invitations by the tenant roles, and joins with a link's token", () => {
    const out = join(scratch, "tenancy");
    execFileSync(process.execPath, [join(repo, "bin/hashapi.js"), "generate", join(repo, "test/fixtures/tenancy"), "--out", out], { stdio: "pipe" });
    const file = join(scratch, "tenant-calls.ts");
    writeFileSync(
      file,
      `import { createClient, unwrap, type TenantRole } from "${join(out, "client/src/index.js")}";
export async function calls() {
  const api = createClient({ baseUrl: "http://127.0.0.1:3000", tenant: "AGY_AAAAAAAA" });
  await api.members.invite({ email: "a@example.com", role: "manager" });
  await api.members.invite({ email: "a@example.com", role: "staff" });
  await api.members.setRole("USR_AAAAAAAA", "owner");
  const joined = unwrap(await api.auth.joinTenant("token"));
  const role: TenantRole = joined.role;
  await api.auth.acceptInvitation({ token: "token", name: "Nora", password: "a long password" });
  await api.auth.invite({ email: "a@example.com", role: "user" });
  const members = unwrap(await api.members.list());
  api.setTenant(unwrap(await api.members.tenants())[0]?.hash);
  return [role, members[0]?.role satisfies TenantRole | undefined];
}
`,
    );
    const found = [...diagnosticsOf([file])].map(([at, messages]) => [Number(at.slice(at.lastIndexOf(":") + 1)), messages.join(" ")] as const);
    // A platform role is no tenant role; the fixture has no platform invitations (no auth.invitations).
    expect(found.map(([line]) => line)).toEqual([5, 10]);
    expect(found[0]![1]).toContain('"staff"');
    expect(found[1]![1]).toContain("Property 'invite' does not exist");
  }, 60_000);
});

describe("client/ as a package", () => {
  it("packs as it is (built by its prepack) and is imported by name, types included", () => {
    const dir = join(scratch, "pack");
    cpSync(join(repo, "generated/client"), join(dir, "client"), { recursive: true });
    const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: join(dir, "client"), encoding: "utf8" }).trim();
    const app = join(dir, "app");
    const installed = join(app, "node_modules", "clinic-api-client");
    mkdirSync(installed, { recursive: true });
    execFileSync("tar", ["-xzf", join(dir, tarball), "-C", installed, "--strip-components=1"]);
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { dependencies?: object };
    expect(manifest.dependencies).toBeUndefined();
    writeFileSync(join(app, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(app, "use.mjs"), `import { createClient, ApiError } from "clinic-api-client";\nconsole.log(typeof createClient({ baseUrl: "http://127.0.0.1:1" }).patients.list, typeof ApiError);\n`);
    expect(execFileSync(process.execPath, ["use.mjs"], { cwd: app, encoding: "utf8" }).trim()).toBe("function function");
    writeFileSync(join(app, "use.ts"), `import { createClient, type PatientHash } from "clinic-api-client";\nexport const hash: PatientHash = "PAT_AAAAAAAA";\nexport const api = createClient({ baseUrl: "/" });\n`);
    expect([...diagnosticsOf([join(app, "use.ts")])]).toEqual([]);
  });
});
