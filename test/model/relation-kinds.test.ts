import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RelationKindName as RuntimeRelationKindName } from "../../runtime/common/src/data/table/spec.js";
import { loadModel } from "../../src/index.js";
import { kindOf, relationKindNames, relationKinds } from "../../src/model/relations/kinds.js";
import type { ProjectModel, RelationKindName, RelationModel, ResourceModel } from "../../src/model/types.js";
import { SpecSource } from "../../src/spec/source.js";
import type { RelationSpec } from "../../src/spec/types.js";

// Compile-time: the spec format, the model and the runtime name the same kinds (relations/kinds.ts
// is a mapped type over the spec's, so a kind without a module does not compile either).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const specAndModelAgree: Same<RelationSpec["type"], RelationKindName> = true;
export const modelAndRuntimeAgree: Same<RelationKindName, RuntimeRelationKindName> = true;

/** What a kind's checkOptions says of one relation, as messages by path. */
function optionProblems(relation: RelationSpec): string[] {
  const yaml = `name: Doctor\nfields:\n  name: { type: string }\nrelations:\n  ${relation.name}: ${JSON.stringify(relation)}\n`;
  const { source } = SpecSource.parse("doctor.yaml", yaml);
  return kindOf(relation).checkOptions(relation, ["relations", relation.name], source).map((problem) => `${problem.path}: ${problem.message}`);
}

let dir: string;
let project: ProjectModel;
const resource = (name: string): ResourceModel => project.resources.find((candidate) => candidate.name === name)!;
const relation = (owner: string, name: string): RelationModel => resource(owner).relations.find((candidate) => candidate.name === name)!;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hashapi-kinds-"));
  await writeFile(
    join(dir, "doctor.yaml"),
    "name: Doctor\nfields:\n  name: { type: string }\nrelations:\n  visits: { type: hasMany, resource: Visit }\n  specialties: { type: belongsToMany, resource: Specialty, pivot: { since: { type: date } } }\n  mentor: { type: belongsTo, resource: Doctor, onDelete: setNull }\n",
  );
  await writeFile(join(dir, "specialty.yaml"), "name: Specialty\nfields:\n  title: { type: string }\nrelations:\n  doctors: { type: belongsToMany, resource: Doctor, inverse: specialties }\n");
  await writeFile(join(dir, "visit.yaml"), "name: Visit\nfields:\n  at: { type: datetime }\nrelations:\n  doctor: { type: belongsTo, resource: Doctor, required: true }\n  author: { type: belongsTo, resource: User }\n");
  project = await loadModel(dir);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe("relation kinds (src/model/relations/)", () => {
  it("are the kinds the spec's JSON Schema offers editors, in the order resources list them", () => {
    const schema = JSON.parse(readFileSync(new URL("../../schema/spec.schema.json", import.meta.url), "utf8")) as {
      definitions: { relation: { properties: { type: { enum: string[] } } } };
    };
    expect(schema.definitions.relation.properties.type.enum).toEqual(relationKindNames);
    expect(Object.keys(relationKinds)).toEqual(["belongsTo", "hasMany", "belongsToMany"]);
    // A resource lists its relations kind by kind, each kind in spec order.
    expect(resource("Doctor").relations.map((entry) => `${entry.kind} ${entry.name}`)).toEqual(["belongsTo mentor", "hasMany visits", "belongsToMany specialties"]);
  });

  it.each([
    [{ name: "boss", type: "belongsTo", resource: "Doctor", inverse: "x", pivot: [] }, ["relations.boss.pivot: \"pivot\" applies to belongsToMany only", "relations.boss.inverse: \"inverse\" applies to hasMany only"]],
    [{ name: "boss", type: "belongsTo", resource: "Doctor", required: true, onDelete: "setNull" }, ["relations.boss.onDelete: setNull needs a relation that is not required (its column must accept NULL)"]],
    [{ name: "visits", type: "hasMany", resource: "Visit", required: true, onDelete: "cascade" }, ["relations.visits.required: \"required\" applies to belongsTo only; set it on the other side", "relations.visits.onDelete: \"onDelete\" applies to belongsTo only; set it on the other side"]],
    [{ name: "restore", type: "belongsToMany", resource: "Specialty", required: false }, ["relations.restore: \"restore\" is the path of a restore; choose another relation name", "relations.restore.required: \"required\" applies to belongsTo only; a belongsToMany's links are removed with either record"]],
    [{ name: "tags", type: "belongsToMany", resource: "Specialty", inverse: "doctors", pivot: [{ name: "tag_id", type: "string", unique: true }] }, ["relations.tags.pivot: the pivot fields belong to the side without inverse (Specialty.doctors); declare them there", "relations.tags.pivot.tag_id: \"tag_id\" is reserved in a pivot (its keys and the related record's hash); choose another name", "relations.tags.pivot.tag_id.unique: a pivot field cannot be unique"]],
    [{ name: "boss", type: "belongsTo", resource: "Doctor", onDelete: "cascade" }, []],
  ] as [RelationSpec, string[]][])("checks the options its kind takes: %j", (spec, messages) => {
    expect(optionProblems(spec)).toEqual(messages);
  });

  it("builds each kind's model, its filter operators and the keys its events record", () => {
    expect(relation("Visit", "doctor")).toMatchObject({ kind: "belongsTo", foreignKey: "doctor_id", required: true, onDelete: "restrict", eager: false });
    expect(relation("Doctor", "visits")).toMatchObject({ kind: "hasMany", inverse: "doctor", foreignKey: "doctor_id" });
    // The inverse side reads the owner's pivot with the keys swapped.
    expect(relation("Doctor", "specialties")).toMatchObject({ pivotTable: "doctors_specialties", ownKey: "doctor_id", otherKey: "specialty_id", owning: true });
    expect(relation("Specialty", "doctors")).toMatchObject({ pivotTable: "doctors_specialties", ownKey: "specialty_id", otherKey: "doctor_id", owning: false });
    expect(resource("Doctor").filters.filter((filter) => filter.kind === "relation").map((filter) => [filter.name, filter.operators])).toEqual([
      ["mentor", relationKinds.belongsTo.filterOperators],
      ["specialties", ["eq", "in"]],
    ]);
    const doctorSpec: RelationSpec[] = [
      { name: "mentor", type: "belongsTo", resource: "Doctor" },
      { name: "visits", type: "hasMany", resource: "Visit" },
      { name: "specialties", type: "belongsToMany", resource: "Specialty", pivot: [{ name: "since", type: "date" }] },
    ];
    expect(doctorSpec.map((entry) => kindOf(entry).eventKeys(entry))).toEqual([["mentor"], [], ["specialties", "specialties.since"]]);
  });

  it("outputs a belongsTo on every record and the list kinds only when loaded", () => {
    expect(resource("Doctor").serializer.map((entry) => entry.key)).toEqual(["hash", "name", "mentor", "created_at", "updated_at"]);
    expect(resource("Doctor").declaration.output.keys).toEqual(["hash", "name", "mentor", "created_at", "updated_at"]);
    expect(relationKindNames.filter((name) => relationKinds[name].unloaded !== undefined)).toEqual(["belongsTo"]);
    expect(resource("Doctor").relations.map((entry) => kindOf(entry).loaded.clientType(resource("Doctor"), entry))).toEqual([
      "DoctorNested | null",
      "VisitNested[]",
      "(SpecialtyNested & { pivot: DoctorSpecialtiesPivot })[]",
    ]);
    expect(kindOf(relation("Visit", "author")).loaded.clientType(resource("Visit"), relation("Visit", "author"))).toBe("RelatedUser | null");
  });

  it("declares each kind in the repository and in Prisma, both sides, and a pivot model for the owning side only", () => {
    expect(resource("Doctor").declaration.relations).toEqual([
      { name: "mentor", row: "mentor: DoctorRow | { hash: string } | null", table: `{ kind: "belongsTo", foreignKey: "mentor_id", target: () => doctorTable }` },
      { name: "visits", row: "visits?: VisitRow[]", table: `{ kind: "hasMany", foreignKey: "doctor_id", target: () => visitTable }` },
      {
        name: "specialties",
        row: "specialties?: (SpecialtyRow & { pivot: Record<string, unknown> })[]",
        table: `{ kind: "belongsToMany", pivot: "doctors_specialties", ownKey: "doctor_id", otherKey: "specialty_id", target: () => specialtyTable, pivotColumns: { since: "date" } }`,
      },
    ]);
    const doctor = resource("Doctor");
    const visit = resource("Visit");
    const scalar = (field: { name: string }) => [field.name, "Scalar", ""];
    expect(kindOf(relation("Visit", "doctor")).prisma.fields(visit, relation("Visit", "doctor"))).toEqual([
      ["doctor_id", "Int", ""],
      ["doctor", "Doctor", '@relation("Visit_doctor", fields: [doctor_id], references: [id], onDelete: Restrict)'],
    ]);
    // The list side of Visit.doctor on Doctor is the hasMany that mirrors it; Visit.author's is on the users.
    expect(kindOf(relation("Visit", "doctor")).prisma.fieldsOn(doctor, visit, relation("Visit", "doctor"))).toEqual([["visits", "Visit[]", '@relation("Visit_doctor")']]);
    expect(kindOf(relation("Visit", "author")).prisma.fieldsOnUsers(visit, relation("Visit", "author"))).toEqual([["visits_by_author", "Visit[]", '@relation("Visit_author")']]);
    expect(kindOf(relation("Doctor", "specialties")).prisma.models(doctor, relation("Doctor", "specialties"), scalar).map((model) => [model.name, model.attributes])).toEqual([
      ["DoctorSpecialties", ["@@id([doctor_id, specialty_id])", "@@index([specialty_id])", '@@map("doctors_specialties")']],
    ]);
    expect(kindOf(relation("Specialty", "doctors")).prisma.models(resource("Specialty"), relation("Specialty", "doctors"), scalar)).toEqual([]);
  });
});
