import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { defineConfig, type Plugin } from "vitest/config";

const runtime = resolve(import.meta.dirname, "runtime");

/**
 * The runtime library is one folder in a generated project but three here (common/, sqlite/,
 * postgresql/): a relative import that does not exist beside the importer is looked up in common/,
 * as it will sit in the project, then in sqlite/ (the driver common/ imports, as in a SQLite project).
 */
function runtimeLayout(): Plugin {
  return {
    name: "hashapi-runtime-layout",
    resolveId(source, importer) {
      if (!importer?.startsWith(runtime) || !source.startsWith(".")) return null;
      const wanted = resolve(dirname(importer), source).replace(/\.js$/, ".ts");
      if (existsSync(wanted)) return wanted;
      const inProject = relative(runtime, wanted).split("/").slice(1).join("/");
      return [join(runtime, "common", inProject), join(runtime, "sqlite", inProject)].find((path) => existsSync(path)) ?? null;
    },
  };
}

export default defineConfig({
  plugins: [runtimeLayout()],
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // End-to-end suites start servers and databases; two cores do not gain from more workers.
    maxWorkers: 2,
  },
});
