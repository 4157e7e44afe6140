import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const require = createRequire(import.meta.url);

type Provider = "sqlite" | "postgresql";

/**
 * What hashapi ran before the schema engine came in-process (src/migrate/schema-engine.ts): Prisma's
 * own CLI, `prisma migrate diff --script` in a second process, kept here so a test can prove the two
 * give the same SQL. Prisma 6.19 needs a config file with `engine: "js"`, an adapter, and `schema`:
 * without `schema` its CLI fetches a query-engine binary.
 */
export async function cliMigrateDiff(
  fromSchema: string | null,
  toSchema: string,
  provider: Provider,
): Promise<string> {
  const workDir = await mkdtemp(join(tmpdir(), "hashapi-diff-"));
  try {
    const toPath = join(workDir, "to.prisma");
    await writeFile(toPath, toSchema);
    await writeFile(join(workDir, "prisma.config.mjs"), configSource());
    const fromArgs = fromSchema === null ? ["--from-empty"] : ["--from-schema-datamodel", "from.prisma"];
    if (fromSchema !== null) await writeFile(join(workDir, "from.prisma"), fromSchema);
    const args = [
      ...wasmFlags,
      prismaCliPath(),
      "migrate",
      "diff",
      "--config",
      "prisma.config.mjs",
      ...fromArgs,
      "--to-schema-datamodel",
      "to.prisma",
      "--script",
    ];
    const { stdout } = await run(process.execPath, args, {
      cwd: workDir,
      // CHECKPOINT_DISABLE: no update check against checkpoint.prisma.io (nothing here goes online),
      // which also kept the process alive ≈ 0.3 s after the diff was printed.
      env: { ...process.env, DATABASE_URL: placeholderUrl[provider], PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stderr?: string; stdout?: string }) => {
      const detail = `${error.stderr ?? ""}${error.stdout ?? ""}`.trim();
      throw new Error(`prisma migrate diff failed:\n${detail}`);
    });
    return stdout;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

const wasmFlags = ["--wasm-lazy-compilation", "--liftoff-only"];

const placeholderUrl: Record<Provider, string> = {
  sqlite: "file:./unused.db",
  postgresql: "postgresql://localhost:5432/unused",
};

function prismaCliPath(): string {
  return join(dirname(require.resolve("prisma/package.json")), "build", "index.js");
}

function configSource(): string {
  const config = pathToFileURL(require.resolve("prisma/config")).href;
  const adapter = pathToFileURL(require.resolve("@prisma/adapter-better-sqlite3")).href;
  // Prisma 6.19 builds the adapter even for `migrate diff` (it never queries it): importing it
  // lazily would save nothing.
  return [
    `import { defineConfig } from ${JSON.stringify(config)};`,
    `import { PrismaBetterSQLite3 } from ${JSON.stringify(adapter)};`,
    "export default defineConfig({",
    "  experimental: { adapter: true },",
    '  engine: "js",',
    '  schema: "to.prisma",',
    '  async adapter() { return new PrismaBetterSQLite3({ url: ":memory:" }); },',
    "});",
    "",
  ].join("\n");
}
