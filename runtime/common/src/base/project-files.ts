// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";

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
 * Returns the names `.env` set, so that a message about a setting can say where it came from.
 */
export function loadEnvironment(moduleUrl: string): ReadonlySet<string> {
  const file = projectPath(moduleUrl, ".env");
  if (!existsSync(file)) return new Set();
  const before = new Set(Object.keys(process.env));
  process.loadEnvFile(file);
  return new Set(Object.keys(process.env).filter((name) => !before.has(name)));
}

/**
 * One setting as the project's processes will see it (the environment over `.env`), and where it
 * came from; process.env is left as it is, since a supervisor such as `npm run dev` must let every
 * server it starts read a `.env` edited since.
 */
export function readSetting(
  moduleUrl: string,
  name: string,
): { value: string | undefined; source: ReturnType<typeof settingSource> } {
  const file = projectPath(moduleUrl, ".env");
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, "utf8")) : {};
  const fileSets = process.env[name] === undefined && fromFile[name] !== undefined;
  return {
    value: process.env[name] ?? fromFile[name],
    source: settingSource(name, new Set(fileSets ? [name] : [])),
  };
}

/** Where a setting's value came from, for messages: `.env`, the environment, or the default. */
export function settingSource(
  name: string,
  fromFile: ReadonlySet<string>,
  environment: NodeJS.ProcessEnv = process.env,
): ".env" | "the environment" | "the default" {
  if (fromFile.has(name)) return ".env";
  return environment[name] === undefined ? "the default" : "the environment";
}
