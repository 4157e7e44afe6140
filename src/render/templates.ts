import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join, relative, sep } from "node:path";

export interface TemplateSource {
  /** Path under templates/ without the `.hbs` suffix: the output path it renders to. */
  path: string;
  source: string;
}

export const defaultTemplatesDir = fileURLToPath(new URL("../../templates", import.meta.url));

/** Reads every `*.hbs` under the templates folder, sorted by path so rendering order is stable. */
export async function loadTemplates(dir = defaultTemplatesDir): Promise<TemplateSource[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".hbs"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  return Promise.all(
    files.map(async (file) => ({
      path: relative(dir, file).split(sep).join("/").slice(0, -".hbs".length),
      source: await readFile(file, "utf8"),
    })),
  );
}
