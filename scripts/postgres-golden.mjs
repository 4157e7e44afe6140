// The PostgreSQL golden, stored as a difference: generated-postgresql/ holds only the files of the
// example generated with `database: postgresql` that differ from generated/ (SQLite), so a reviewer
// reads each PostgreSQL-specific change once. assemblePostgresProject() puts the whole project back
// together; scripts/golden-postgresql.mjs writes the difference; test/golden/golden.test.ts checks it.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** Folders and files of a project that are never golden: installed, built, local data, secrets. */
const notGolden = new Set(["node_modules", "dist", "data", "src/prisma-client", ".env"]);

/** Every golden file under `dir`, as paths relative to it. */
export function goldenFiles(dir) {
  const files = [];
  const walk = (folder) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (notGolden.has(relative(dir, path))) continue;
      if (statSync(path).isDirectory()) walk(path);
      else files.push(relative(dir, path));
    }
  };
  if (existsSync(dir)) walk(dir);
  return files;
}

/** Files the SQLite project has and a PostgreSQL project does not (its driver's own modules). */
function sqliteOnly(repo) {
  const manifest = (dir) => JSON.parse(readFileSync(join(repo, dir, "hashapi.manifest.json"), "utf8")).files;
  const postgres = manifest("generated-postgresql");
  return Object.keys(manifest("generated")).filter((path) => !Object.hasOwn(postgres, path));
}

/**
 * Whether `path` belongs to a migration only the SQLite example has (one `npm run golden:update`
 * just wrote): every PostgreSQL migration has a snapshot of its own, as the datasource differs.
 */
function sqliteMigration(repo, path) {
  const migration = /^prisma\/migrations\/([^/]+)\//.exec(path);
  return migration !== null && !existsSync(join(repo, "generated-postgresql/prisma/migrations", migration[1], "schema.snapshot"));
}

/** Writes the whole PostgreSQL example project into `target`: generated/ overlaid with generated-postgresql/. */
export function assemblePostgresProject(repo, target) {
  const sqlite = join(repo, "generated");
  const postgres = join(repo, "generated-postgresql");
  const skip = new Set(sqliteOnly(repo));
  for (const path of goldenFiles(sqlite))
    if (!skip.has(path) && !sqliteMigration(repo, path)) copy(join(sqlite, path), join(target, path));
  for (const path of goldenFiles(postgres)) copy(join(postgres, path), join(target, path));
}

/** Stores `project` (a whole PostgreSQL project) as its difference from generated/. */
export function storePostgresDifference(repo, project) {
  const sqlite = join(repo, "generated");
  const postgres = join(repo, "generated-postgresql");
  rmSync(postgres, { recursive: true, force: true });
  for (const path of goldenFiles(project)) {
    const content = readFileSync(join(project, path));
    const same = existsSync(join(sqlite, path)) && readFileSync(join(sqlite, path)).equals(content);
    if (!same) copy(join(project, path), join(postgres, path));
  }
}

function copy(from, to) {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to);
}

