import { fileURLToPath } from "node:url";
import { join } from "node:path";
import type { DatabaseModel } from "../model/types.js";
import type { OutputFile } from "../output/types.js";
import { readTree } from "./read-tree.js";

/**
 * hashapi's runtime library: the TypeScript every generated project shares, kept in runtime/ as real
 * modules (type-checked and unit-tested in this repository) and copied into the project byte for
 * byte. `common/` goes to every project, `sqlite/` or `postgresql/` only to a project on that database,
 * `client/` to every project's typed client (under `client/`), `admin/` to its back office (under
 * `admin/`, built into dist/admin-ui by `npm run build`).
 */
export const defaultRuntimeDir = fileURLToPath(new URL("../../runtime", import.meta.url));

export async function loadRuntime(database: DatabaseModel, source: string, dir = defaultRuntimeDir): Promise<OutputFile[]> {
  const parts: [folder: string, under: string][] = [["common", ""], [database.provider, ""], ["client", "client/"], ["admin", "admin/"]];
  const files = await Promise.all(
    parts.map(async ([folder, under]) => (await readTree(join(dir, folder))).map((file) => ({ ...file, path: `${under}${file.path}` }))),
  );
  return files.flat().map(({ path, content }) => ({ path, content, ownership: "generated", source, verbatim: true }));
}
