import { describe, expect, it } from "vitest";
import { projectClientNames, resourceClientNames } from "../../src/model/client-names.js";
import { buildClientModule } from "../../src/emit/client.js";
import { buildModel } from "../../src/model/build.js";
import { loadSpecsDir } from "../../src/spec/load.js";
import { validateSpecs } from "../../src/spec/validate.js";

/**
 * The typed client's module declares exactly the names src/model/client-names.ts lists: the list
 * the spec check refuses clashes with (resource-checks.ts checkClientNames) cannot drift from what
 * the emitter writes. Checked on the example and on the every-option fixture (/api/users managed).
 */
const repo = new URL("../..", import.meta.url).pathname;

async function declaredNames(specsDir: string): Promise<{ declared: string[]; listed: string[] }> {
  const { specs } = validateSpecs(await loadSpecsDir(`${repo}${specsDir}`));
  if (!specs) throw new Error(`${specsDir} does not validate`);
  const model = buildModel(specs, `${specsDir}/`);
  const module = buildClientModule(model);
  const declared = [...module.matchAll(/^export (?:type|interface|function) (\w+)/gm)].map((match) => match[1]!);
  const many = (name: string) => model.resources.find((resource) => resource.name === name)!.belongsToMany.map((relation) => relation.name);
  const listed = [
    ...projectClientNames,
    "createClient",
    ...model.resources.flatMap((resource) => resourceClientNames(resource.name, many(resource.name))),
    ...(model.user.managed ? resourceClientNames("User", [], true) : []),
  ];
  return { declared, listed };
}

describe("the names the typed client declares", () => {
  it.each([["specs"], ["test/fixtures/every-option"]])("are the ones client-names.ts lists, for %s", async (specsDir) => {
    const { declared, listed } = await declaredNames(specsDir);
    expect([...declared].sort()).toEqual([...listed].sort());
    expect(new Set(declared).size).toBe(declared.length);
  });
});

describe("the payload types of the typed client", () => {
  it("leave out what only the server sets, and note what only some roles may send, as the server decides", async () => {
    const { mkdtemp, writeFile, copyFile, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = await mkdtemp(join(tmpdir(), "hashapi-client-"));
    try {
      await copyFile(`${repo}specs/hashapi.yaml`, join(dir, "hashapi.yaml"));
      await writeFile(
        join(dir, "job.yaml"),
        "name: Job\nfields:\n  title: { type: string, max: 120 }\n  opened_at: { type: datetime, set: create }\n  closed_on: { type: date, set: { on: write, bypass: [admin] } }\nrelations:\n  recruiter: { type: belongsTo, resource: User, set: create }\n  editor: { type: belongsTo, resource: User, set: { on: write, bypass: [admin] } }\n  owner: { type: belongsTo, resource: User }\nowner: { relation: owner, bypass: [admin] }\n",
      );
      const { specs, problems } = validateSpecs(await loadSpecsDir(dir));
      expect(problems).toEqual([]);
      const module = buildClientModule(buildModel(specs!, "specs/"));
      for (const payload of ["JobCreate", "JobUpdate"]) {
        const body = new RegExp(`export interface ${payload} \\{([^}]*)\\}`).exec(module)![1]!;
        expect(body, payload).not.toMatch(/opened_at|recruiter/);
        for (const key of ["closed_on", "editor", "owner"]) expect(body, `${payload} ${key}`).toMatch(new RegExp(`Only admin may send it[^\\n]*\\n\\s*${key}\\?`));
        expect(body).toMatch(/\n {2}title/);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
