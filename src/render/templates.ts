import { fileURLToPath } from "node:url";
import { readTree } from "./read-tree.js";

export interface TemplateSource {
  /** Path under templates/ without the `.hbs` suffix: the output path it renders to. */
  path: string;
  source: string;
}

export const defaultTemplatesDir = fileURLToPath(new URL("../../templates", import.meta.url));

/** Reads every `*.hbs` under the templates folder, sorted by path so rendering order is stable. */
export async function loadTemplates(dir = defaultTemplatesDir): Promise<TemplateSource[]> {
  const files = await readTree(dir, (name) => name.endsWith(".hbs"));
  return files.map((file) => ({ path: file.path.slice(0, -".hbs".length), source: file.content }));
}
