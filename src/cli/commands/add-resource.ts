import { findSpecsDir } from "../specs-dir.js";
import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "commander";
import { HashapiError, SpecError } from "../../errors.js";
import { formatProblem, loadSpecsDir, parseSpecFile, validateSpecs, type LoadedSpecs } from "../../spec/index.js";
import { fieldTypeNames } from "../../model/field-types.js";
import { defaultCollection, toKebab, toSnake } from "../../model/naming.js";
import { fieldModifiers, parseFieldsFlag } from "../../scaffold/fields-flag.js";
import { resourceClassName } from "../../scaffold/resource-name.js";
import { resourceSpecFromFields, resourceSpecTemplate, withHasMany, type BelongsToFlag } from "../../scaffold/resource-spec.js";
import { singularize } from "../../scaffold/singularize.js";
import type { ExitCode } from "../exit-code.js";

export function registerAddResource(program: Command, setExit: (code: ExitCode) => void): void {
  program
    .command("add-resource")
    .description("Write a new resource spec file (from --fields, or a commented template).")
    .argument("<name>", "resource name: patients, Patient or medical-records")
    .option("-f, --fields <list>", "fields as name:type[:modifier…], comma-separated")
    .option("-b, --belongs-to <list>", "required belongsTo relations, comma-separated: patient,doctor or author:User")
    .option("-m, --belongs-to-many <list>", "belongsToMany relations (pivot tables), comma-separated: tags or tags:Tag")
    .option("--has-many <list>", "hasMany relations (the other side of their belongsTo), comma-separated: appointments or visits:Appointment")
    .option("--inverse", "also add the hasMany side of each --belongs-to to its resource's spec (nothing else of it changes)")
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
  $ hashapi add-resource comments --fields 'body:text:search' --belongs-to ticket,author:User --inverse

Quote --fields: the shell reads | and other characters of it as its own.

Field types: ${fieldTypeNames.join(", ")}.
Modifiers: ${fieldModifiers}.
An existing spec file is never overwritten; --inverse only adds a relation to the specs it names.`,
    )
    .action(async (input: string, given: AddResourceFlags) => {
      await addResource(input, given);
      setExit(0);
    });
}

interface AddResourceFlags {
  fields?: string;
  belongsTo?: string;
  belongsToMany?: string;
  hasMany?: string;
  inverse?: boolean;
  specs: string;
}

/** Writes the new spec (and the hasMany sides --inverse asks for), once it validates beside the others. */
async function addResource(input: string, given: AddResourceFlags): Promise<void> {
  const flags = { ...given, specs: findSpecsDir(given.specs) };
  const name = resourceClassName(input);
  const fields = flags.fields === undefined ? undefined : parseFieldsFlag(flags.fields);
  const belongsTo = [
    ...relationsFlag(flags.belongsTo).map((relation) => ({ ...relation, type: "belongsTo" as const })),
    ...relationsFlag(flags.belongsToMany).map((relation) => ({ ...relation, type: "belongsToMany" as const })),
    ...relationsFlag(flags.hasMany, true).map((relation) => ({ ...relation, type: "hasMany" as const })),
  ];
  const file = join(flags.specs, `${toKebab(name)}.yaml`);
  if (await exists(file)) {
    throw new HashapiError(`${file} already exists; hashapi never overwrites a spec. Edit it, or choose another name.`);
  }
  const text =
    (fields && fields.length > 0) || belongsTo.length > 0 ? resourceSpecFromFields(name, fields ?? [], belongsTo) : resourceSpecTemplate(name);
  // The other side of each belongsTo, in its resource's own spec: `<collection of the new resource>`.
  const inverses = flags.inverse ? await inverseSides(flags.specs, name, belongsTo) : [];
  // Checked as generate would check it, beside the specs already there: nothing is written when it is wrong.
  await assertValidBeside(flags.specs, file, text, inverses);
  await mkdir(flags.specs, { recursive: true });
  await writeFile(file, text, { flag: "wx" });
  for (const inverse of inverses) await writeFile(inverse.file, inverse.text);
  process.stdout.write(
    `Created ${file} (resource ${name}).\n\nNext:\n` +
      `  1. Review it${fields ? "" : " and fill in the fields"}: relations, rules, softDelete, auth.public.\n` +
      `  2. hashapi validate ${flags.specs}\n` +
      `  3. hashapi generate ${flags.specs}   (writes the code and the migration)\n` +
      `  4. npm run db:migrate in the generated project\n` +
      inverses.map((inverse) => `Added ${inverse.relation} (hasMany ${name}) to ${inverse.file}.\n`).join(""),
  );
}

/**
 * `patient` (the resource Patient) or `author:User` (a relation named apart from its resource),
 * comma-separated; `plural` for hasMany lists, whose names are plural (`appointments`).
 */
function relationsFlag(list: string | undefined, plural = false): { name: string; resource: string }[] {
  return (list ?? "")
    .split(",")
    .map((relation) => relation.trim())
    .filter(Boolean)
    .map((relation) => {
      const [relationName, resource = relationName] = relation.split(":") as [string, string?];
      return { name: toSnake(relationName), resource: resourceClassName(plural && resource === relationName ? singularize(resource) : resource) };
    });
}

interface InverseSide {
  file: string;
  relation: string;
  text: string;
}

/** For each --belongs-to of a resource of the specs, its spec with the hasMany back to `name` added. */
async function inverseSides(specsDir: string, name: string, relations: readonly BelongsToFlag[]): Promise<InverseSide[]> {
  const loaded = await loadSpecsDir(specsDir);
  const sides: InverseSide[] = [];
  for (const relation of relations.filter((entry) => entry.type === "belongsTo" && entry.resource !== "User")) {
    const target = loaded.resources.find((resource) => (resource.data as { name?: unknown } | null)?.name === relation.resource);
    if (!target) throw new HashapiError(`--inverse: no spec in ${specsDir} defines ${relation.resource}: add it first, or leave --inverse out.`);
    const collection = toSnake(defaultCollection(name).replaceAll("-", "_"));
    const text = withHasMany(await readFile(target.source.file, "utf8"), collection, name);
    if (text === undefined) throw new HashapiError(`--inverse: ${target.source.file} already has a relation named ${collection}.`);
    sides.push({ file: target.source.file, relation: collection, text });
  }
  return sides;
}

/** The new spec (and the specs --inverse changes) validated together with the rest: problems of any of them refuse. */
async function assertValidBeside(specsDir: string, file: string, text: string, changed: readonly InverseSide[] = []): Promise<void> {
  const { loaded, problems: syntax } = parseSpecFile(file, text);
  const others = await exists(specsDir) ? await loadSpecsDir(specsDir).catch(() => undefined) : undefined;
  const replaced = changed.map((side) => parseSpecFile(side.file, side.text));
  const kept = (others?.resources ?? []).filter((resource) => !changed.some((side) => side.file === resource.source.file));
  const specs: LoadedSpecs = { project: others?.project ?? null, resources: [...kept, ...replaced.map((entry) => entry.loaded), loaded], problems: [...syntax, ...replaced.flatMap((entry) => entry.problems)] };
  const touched = new Set([file, ...changed.map((side) => side.file)]);
  const problems = specs.problems.length > 0 ? specs.problems : validateSpecs(specs).problems.filter((problem) => touched.has(problem.file));
  if (problems.length > 0) throw new SpecError(problems.map(formatProblem), problems);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
