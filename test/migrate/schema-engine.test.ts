import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeSql, prismaMigrateDiff } from "../../src/migrate/prisma-diff.js";
import { cliMigrateDiff } from "../support/prisma-cli-diff.js";

const require = createRequire(import.meta.url);
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const snapshot = (project: string, migration: string) =>
  readFileSync(join(project, "prisma/migrations", migration, "schema.snapshot"), "utf8");

describe("the schema engine in-process (src/migrate/schema-engine.ts)", () => {
  it("is the very engine Prisma's CLI bundles: same WebAssembly, same engine version", () => {
    const engineDir = dirname(require.resolve("@prisma/schema-engine-wasm"));
    const cliDir = join(dirname(require.resolve("prisma/package.json")), "build");
    expect(sha256(join(engineDir, "schema_engine_bg.wasm"))).toBe(sha256(join(cliDir, "schema_engine_bg.wasm")));
    const { version } = JSON.parse(readFileSync(join(engineDir, "package.json"), "utf8")) as { version: string };
    const { prisma } = JSON.parse(readFileSync(require.resolve("@prisma/engines-version/package.json"), "utf8")) as { prisma: { enginesVersion: string } };
    expect(version.endsWith(`.${prisma.enginesVersion}`)).toBe(true);
  });

  // Each pair: a database from nothing, and a later migration, on both providers.
  const cases = [
    ["SQLite, from nothing", null, snapshot("generated", "0008_user_sessions_from")],
    ["SQLite, 0005 → 0006 (a pivot table, new columns)", snapshot("generated", "0005_ownership"), snapshot("generated", "0006_specialties")],
    ["PostgreSQL, from nothing", null, snapshot("generated-postgresql", "0008_user_sessions_from")],
    ["PostgreSQL, 0002 → 0003 (an enum, a default)", snapshot("generated-postgresql", "0002_email_unique_regardless_of_case"), snapshot("generated-postgresql", "0003_user_roles")],
  ] as const;

  it.each(cases)("writes the SQL `prisma migrate diff --script` prints, byte for byte: %s", async (_label, from, to) => {
    const provider = /provider\s*=\s*"postgresql"/.test(to) ? "postgresql" : "sqlite";
    const [inProcess, cli] = await Promise.all([prismaMigrateDiff(from, to), cliMigrateDiff(from, to, provider)]);
    expect(inProcess).not.toBe("");
    expect(inProcess).toBe(normalizeSql(cli));
  }, 30_000);

  it("says an empty difference is no migration", async () => {
    const schema = snapshot("generated", "0008_user_sessions_from");
    expect(await prismaMigrateDiff(schema, schema)).toBe("");
  });

  it("refuses a schema the engine cannot read with Prisma's message and no stack trace", async () => {
    const broken = `${snapshot("generated", "0001_init")}\nmodel Broken {\n  id Int @id\n  other Missing\n}\n`;
    await expect(prismaMigrateDiff(null, broken)).rejects.toThrow(/prisma migrate diff failed:[\s\S]*Missing/);
  });
});
