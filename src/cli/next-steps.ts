import type { ChangeSet } from "../output/index.js";
import type { MigrationPlan } from "../pipeline/project.js";
import { styleFor } from "./style.js";

/**
 * What to do after `generate`, for the case at hand: the whole first run in a new folder, or the
 * migration to apply after a regeneration that wrote one. Nothing when nothing needs doing.
 */
export function nextSteps(out: string, changes: ChangeSet, plan: MigrationPlan | null, firstRole?: string): string {
  const firstRun = changes.some((change) => change.path === "hashapi.manifest.json" && change.kind === "create");
  if (firstRun) {
    return [
      "",
      styleFor(process.stdout).bold("Next steps:"),
      `  cd ${out}`,
      "  npm install",
      "  npm run db:migrate",
      `  npm run user:create -- --name "Ada Admin" --email ada@example.com --password "a long password"${firstRole ? ` --role ${firstRole}` : ""}`,
      "  npm run dev                  # http://127.0.0.1:3000/api/docs",
      `${out}/README.md lists the routes, scripts and settings of this project.`,
      "",
    ].join("\n");
  }
  const migration = plan?.files.find((file) => file.path.endsWith("/migration.sql"));
  if (!migration) return "";
  const folder = migration.path.slice(0, migration.path.lastIndexOf("/"));
  return `\nNew migration ${folder}: a running \`npm run dev\` applies it; else run \`npm run db:migrate\` in ${out} (safe while the server runs).\n`;
}
