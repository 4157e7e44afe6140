import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { HashapiError } from "../errors.js";

const require = createRequire(import.meta.url);

/*
 * Prisma's schema engine, in this process. `prisma migrate diff` spent ≈ 1.2–1.5 s per call starting
 * a second Node, loading Prisma's CLI bundle and compiling the engine's WebAssembly; the same engine
 * (`@prisma/schema-engine-wasm`, pinned to the build Prisma 6.19 bundles: test/migrate/schema-engine
 * checks the versions agree and the SQL is the CLI's, byte for byte) loads here in ≈ 0.1 s once, and
 * each diff then costs milliseconds, which is what keeps `generate --watch` under a second.
 */

/** What the engine's `diff` takes and gives (its package's types, the parts used here). */
interface DiffTarget {
  tag: "empty" | "schemaDatamodel";
  files?: { path: string; content: string }[];
}

interface SchemaEngine {
  diff(params: {
    from: DiffTarget;
    to: DiffTarget;
    shadowDatabaseUrl: null;
    script: true;
    exitCode: null;
    filters: { externalTables: string[]; externalEnums: string[] };
  }): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
}

interface EngineModule {
  SchemaEngine: {
    // A static method named `new` (wasm-bindgen's constructor), not a construct signature.
    "new"(
      options: { datamodels: [string, string][] },
      log: (message: string) => void,
      adapter: object,
    ): Promise<SchemaEngine>;
  };
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
}

let loading: Promise<EngineModule> | undefined;

/** The engine's module, compiled once per process (its WebAssembly is 4 MB). */
function engineModule(): Promise<EngineModule> {
  loading ??= (async () => {
    const bindings = (await import(
      "@prisma/schema-engine-wasm/schema_engine_bg"
    )) as unknown as EngineModule;
    const packageDir = dirname(require.resolve("@prisma/schema-engine-wasm"));
    const module = new WebAssembly.Module(readFileSync(join(packageDir, "schema_engine_bg.wasm")));
    const imports = bindings as unknown as WebAssembly.ModuleImports;
    const instance = new WebAssembly.Instance(module, { "./schema_engine_bg.js": imports });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bindings;
  })();
  return loading;
}

/** Loads the engine ahead of the first diff (`generate --watch`, between saves); never throws. */
export async function warmSchemaEngine(): Promise<void> {
  await Promise.all([engineModule(), unusedAdapter()]).catch(() => undefined);
}

/**
 * The adapter the engine is built with, as Prisma's CLI builds it from a config with `engine: "js"`.
 * A diff between two datamodels never queries it (nor opens the in-memory database), for either
 * provider: the schema's own datasource decides the SQL dialect.
 */
async function unusedAdapter(): Promise<object> {
  const [{ PrismaBetterSQLite3 }, { bindMigrationAwareSqlAdapterFactory }] = await Promise.all([
    import("@prisma/adapter-better-sqlite3"),
    import("@prisma/driver-adapter-utils"),
  ]);
  return bindMigrationAwareSqlAdapterFactory(new PrismaBetterSQLite3({ url: ":memory:" }));
}

const noFilters = { externalTables: [], externalEnums: [] };

/** The SQL script from `fromSchema` (or nothing) to `toSchema`, as `prisma migrate diff --script` prints it. */
export async function engineDiff(fromSchema: string | null, toSchema: string): Promise<string> {
  const datamodel = (content: string, path: string): DiffTarget => ({
    tag: "schemaDatamodel",
    files: [{ path, content }],
  });
  let engine: SchemaEngine | undefined;
  try {
    const [bindings, adapter] = await Promise.all([engineModule(), unusedAdapter()]);
    const datamodels: [string, string][] = [["to.prisma", toSchema]];
    const created = await bindings.SchemaEngine.new({ datamodels }, () => {}, adapter);
    engine = created;
    const result = await created.diff({
      from: fromSchema === null ? { tag: "empty" } : datamodel(fromSchema, "from.prisma"),
      to: datamodel(toSchema, "to.prisma"),
      shadowDatabaseUrl: null,
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    return result.stdout ?? "";
  } catch (error) {
    throw new HashapiError(`prisma migrate diff failed:\n${messageOf(error)}`);
  } finally {
    engine?.free();
  }
}

/** The engine rejects with plain objects ({ message, code }) as well as Errors. */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error) return String(error.message);
  return String(error);
}
