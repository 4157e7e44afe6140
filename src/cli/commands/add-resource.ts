import { findSpecsDir } from "../specs-dir.js";
import { access, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "commander";
import { HashapiError, SpecError } from "../../errors.js";
import { formatProblem, loadSpecsDir, parseSpecFile, validateSpecs, type LoadedSpecs } from "../../spec/index.js";
import { toKebab, toSnake } from "../../model/naming.js";
import { parseFieldsFlag } from "../../scaffold/fields-flag.js";
import { resourceClassName } from "../../scaffold/resource-name.js";
import { resourceSpecFromFields, resourceSpecTemplate } from "../../scaffold/resource-spec.js";
import type { ExitCode } from "../main.js";

export function registerAddResource(program: Command, setExit: (code: ExitCode) => void): void {
  program
    .command("add-resource")
    .description("Write a new resource spec file (from --fields, or a commented template).")
    .argument("<name>", "resource name: patients, Patient or medical-records")
    .option("-f, --fields <list>", "fields as name:type[:modifier…], comma-separated")
    .option("-b, --belongs-to <list>", "required belongsTo relations, comma-separated: patient,doctor or author:User")
    .option("-m, --belongs-to-many <list>", "belongsToMany relations (pivot tables), comma-separated: tags or tags:Tag")
    .option("-s, --specs <dir>", "specs folder", "specs")
    .addHelpText(
      "after",
      `
Examples:
  $ hashapi add-resource patients --fields 'name:string:max=120,cpf:string:unique:length=11,phone:string:nullable'
  $ hashapi add-resource medical-records          # commented template to fill in
  $ hashapi add-resource Invoice --fields 'total:decimal:precision=10:scale=2,status:enum:values=open|paid'
  $ hashapi add-resource appointments --fields 'scheduled_at:datetime' --belongs-to patient,doctor
  $ hashapi add-resource books --fields 'title:string' --belongs-to-many tags:Tag

Quote --fields: the shell reads | and other characters of it as its own.

Field types: string, text, integer, decimal, boolean, date, datetime, email, enum, json.
Modifiers: unique, nullable, max=N, min=N, length=N, precision=N, scale=N, values=a|b|c (enum).
An existing spec file is never overwritten.`,
    )
    .action(async (input: string, given: { fields?: string; belongsTo?: string; belongsToMany?: string; specs: string }) => {
      const flags = { ...given, specs: findSpecsDir(given.specs) };
      const name = resourceClassName(input);
      const fields = flags.fields === undefined ? undefined : parseFieldsFlag(flags.fields);
      const belongsTo = [
        ...relationsFlag(flags.belongsTo).map((relation) => ({ ...relation, type: "belongsTo" as const })),
        ...relationsFlag(flags.belongsToMany).map((relation) => ({ ...relation, type: "belongsToMany" as const })),
      ];
      const file = join(flags.specs, `${toKebab(name)}.yaml`);
      if (await exists(file)) {
        throw new HashapiError(`${file} already exists; hashapi never overwrites a spec. Edit it, or choose another name.`);
      }
      const text =
        (fields && fields.length > 0) || belongsTo.length > 0 ? resourceSpecFromFields(name, fields ?? [], belongsTo) : resourceSpecTemplate(name);
      // Checked as generate would check it, beside the specs already there: nothing is written when it is wrong.
      await assertValidBeside(flags.specs, file, text);
      await mkdir(flags.specs, { recursive: true });
      await writeFile(file, text, { flag: "wx" });
      process.stdout.write(
        `Created ${file} (resource ${name}).\n\nNext:\n` +
          `  1. Review it${fields ? "" : " and fill in the fields"}: relations, rules, softDelete, auth.public.\n` +
          `  2. hashapi validate ${flags.specs}\n` +
          `  3. hashapi generate ${flags.specs}   (writes the code and the migration)\n` +
          `  4. npm run db:migrate in the generated project\n`,
      );
      setExit(0);
    });
}

/** `patient` (the resource Patient) or `author:User` (a relation named apart from its resource), comma-separated. */
function relationsFlag(list: string | undefined): { name: string; resource: string }[] {
  return (list ?? "")
    .split(",")
    .map((relation) => relation.trim())
    .filter(Boolean)
    .map((relation) => {
      const [relationName, resource = relationName] = relation.split(":") as [string, string?];
      return { name: toSnake(relationName), resource: resourceClassName(resource) };
    });
}

async function assertValidBeside(specsDir: string, file: string, text: string): Promise<void> {
  const { loaded, problems: syntax } = parseSpecFile(file, text);
  const others = await exists(specsDir) ? await loadSpecsDir(specsDir).catch(() => undefined) : undefined;
  const specs: LoadedSpecs = { project: others?.project ?? null, resources: [...(others?.resources ?? []), loaded], problems: syntax };
  const problems = syntax.length > 0 ? syntax : validateSpecs(specs).problems.filter((problem) => problem.file === file);
  if (problems.length > 0) throw new SpecError(problems.map(formatProblem), problems);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
