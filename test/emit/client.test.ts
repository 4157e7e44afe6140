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
