import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repo } from "./service.js";

/**
 * better-sqlite3's install script fetches a prebuilt binary from GitHub and, failing that, compiles
 * SQLite from source: a minute of CPU a time on this offline machine, where a user's `npm install`
 * downloads the binary in a second. Tests that install a project from scratch stand in a local
 * prebuild for that download: the binary this repository's own install built, packed as the
 * download would be (prebuild-install looks in `npm_config_<package>_local_prebuilds` first). What
 * the tests measure is then the install a user gets; the compile stays covered by `npm ci` here.
 * Returns the environment to give `npm install`, or none when there is no binary to pack.
 */
export function betterSqlitePrebuild(into: string): Record<string, string> {
  const packageDir = join(repo, "node_modules/better-sqlite3");
  const binary = join(packageDir, "build/Release/better_sqlite3.node");
  if (!existsSync(binary)) return {};
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string };
  // The name prebuild-install downloads (glibc Linux has no libc part).
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  mkdirSync(into, { recursive: true });
  if (!existsSync(join(into, name))) execFileSync("tar", ["-czf", join(into, name), "build/Release/better_sqlite3.node"], { cwd: packageDir });
  return { npm_config_better_sqlite3_local_prebuilds: into };
}
