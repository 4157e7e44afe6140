import { mkdir, readdir, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import type { Command } from "commander";
import { HashapiError } from "../../errors.js";
import { projectFileTemplate, exampleResourceSpec } from "../../scaffold/init-files.js";
import type { ExitCode } from "../exit-code.js";

export function registerInit(program: Command, setExit: (code: ExitCode) => void): void {
  program
    .command("init")
    .description("Create a specs folder with a project file and one example resource.")
    .argument("[dir]", "specs folder to create", "specs")
    .option("--name <name>", "package name of the generated project")
    .addHelpText(
      "after",
      `
Examples:
  $ hashapi init                 # ./specs/hashapi.yaml and ./specs/note.yaml
  $ hashapi init api-specs --name inventory-api

Refuses a folder that already holds YAML files.`,
    )
    .action(async (dir: string, flags: { name?: string }) => {
      const entries = await readdir(dir).catch(() => [] as string[]);
      if (entries.some((entry) => /\.ya?ml$/.test(entry))) {
        throw new HashapiError(`${dir} already holds specs; init only creates a new specs folder.`);
      }
      const projectName = flags.name ?? defaultProjectName(dir);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, "hashapi.yaml"), projectFileTemplate(projectName), { flag: "wx" });
      await writeFile(join(dir, "note.yaml"), exampleResourceSpec(), { flag: "wx" });
      process.stdout.write(
        `Created ${join(dir, "hashapi.yaml")} and ${join(dir, "note.yaml")}.\n\nNext:\n` +
          `  hashapi add-resource <name> --specs ${dir}   # one file per resource\n` +
          `  hashapi generate ${dir}                      # the project in api/ (out: in hashapi.yaml)\n`,
      );
      setExit(0);
    });
}

function defaultProjectName(dir: string): string {
  const parent = basename(resolve(dir, ".."));
  const name = parent.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "");
  return name === "" ? "api" : `${name}-api`;
}
