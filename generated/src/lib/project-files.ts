// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * A path of the project's root folder seen from one of its modules (`import.meta.url` of
 * src/server.ts, dist/server.js, dist/scripts/migrate.js, test/support.ts…): right whatever the
 * working directory.
 */
export function projectPath(moduleUrl: string, path: string): string {
  const parts = new URL(moduleUrl).pathname.split("/").reverse();
  const depth = parts.findIndex((part) => part === "src" || part === "dist" || part === "test");
  return fileURLToPath(new URL(`${"../".repeat(depth)}${path}`, moduleUrl));
}

/**
 * Reads the project's `.env` into process.env, if there is one (Node's own parser). Variables the
 * environment already has win, so a deployment's settings are never overridden by a stray file.
 */
export function loadEnvironment(moduleUrl: string): void {
  const file = projectPath(moduleUrl, ".env");
  if (existsSync(file)) process.loadEnvFile(file);
}
