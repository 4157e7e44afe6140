import { buildPrismaSchema } from "../../src/emit/prisma-schema.js";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../../src/index.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hashapi-model-"));
  await writeFile(join(dir, "doctor.yaml"), "name: Doctor\nfields:\n  name: { type: string }\nrelations:\n  visits: { type: hasMany, resource: Visit }\n");
  await writeFile(join(dir, "visit.yaml"), "name: Visit\nfields:\n  at: { type: datetime }\nrelations:\n  physician: { type: belongsTo, resource: Doctor, required: true }\n  referrer: { type: belongsTo, resource: Doctor, onDelete: setNull }\n");
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe("model", () => {
  it("fails without inverse when two belongsTo point back, and finds a single one by its real name", async () => {
    // Two belongsTo to Doctor: validation asks for inverse. With one named physician, it is found.
    await expect(loadModel(dir).catch((error: Error) => error.message)).resolves.toContain("name the one this hasMany mirrors with inverse:");
  });

  it("uses the belongsTo's own name as the inverse of a hasMany", async () => {
    const single = await mkdtemp(join(tmpdir(), "hashapi-model-"));
    try {
      await writeFile(join(single, "doctor.yaml"), "name: Doctor\nfields:\n  name: { type: string }\nrelations:\n  visits: { type: hasMany, resource: Visit }\n");
      await writeFile(join(single, "visit.yaml"), "name: Visit\nfields:\n  at: { type: datetime }\nrelations:\n  physician: { type: belongsTo, resource: Doctor, required: true }\n");
      const built = await loadModel(single);
      const doctor = built.resources.find((resource) => resource.name === "Doctor")!;
      expect(doctor.relations.find((relation) => relation.name === "visits")).toMatchObject({ kind: "hasMany", inverse: "physician" });
      expect(buildPrismaSchema(built)).toMatch(/visits\s+Visit\[\]\s+@relation\("Visit_physician"\)/);
      expect(doctor.referencedBy).toEqual([expect.objectContaining({ relation: "physician", foreignKey: "physician_id", onDelete: "restrict" })]);
    } finally {
      await rm(single, { recursive: true, force: true });
    }
  });

  it("declares index: true as an index of the column, after deleted_at on a soft-deleting resource", async () => {
    const indexed = await mkdtemp(join(tmpdir(), "hashapi-model-"));
    try {
      await writeFile(join(indexed, "visit.yaml"), "name: Visit\nfields:\n  at: { type: datetime, index: true }\n  note: { type: text }\n");
      await writeFile(join(indexed, "patient.yaml"), "name: Patient\nsoftDelete: true\nfields:\n  born: { type: date, index: true }\n");
      const schema = buildPrismaSchema(await loadModel(indexed));
      expect(schema).toContain("@@index([at])");
      expect(schema).toContain("@@index([deleted_at, born])");
      expect(schema).not.toContain("@@index([note])");
    } finally {
      await rm(indexed, { recursive: true, force: true });
    }
  });

  it("names every case of a multi-word resource and derives its prefix and collection", async () => {
    const record = await mkdtemp(join(tmpdir(), "hashapi-model-"));
    try {
      await writeFile(join(record, "medical-record.yaml"), "name: MedicalRecord\nfields:\n  summary: { type: text }\n");
      const [resource] = (await loadModel(record)).resources;
      expect(resource).toMatchObject({ prefix: "MRE", collection: "medical-records", table: "medical_records" });
      expect(resource!.names).toMatchObject({ kebab: "medical-record", pluralLabel: "medical records", pluralPascal: "MedicalRecords" });
    } finally {
      await rm(record, { recursive: true, force: true });
    }
  });

  it("marks an ownership parent that leads back as left out while its target is being made", async () => {
    const built = await loadModel(join(import.meta.dirname, "../fixtures/ownership-cycles"));
    const relationsOf = (name: string) => built.resources.find((resource) => resource.name === name)!.examples.relations.map(({ key, unlessMaking }) => ({ key, unlessMaking }));
    // The ticket's first reply needs a ticket; the task's parent is a task: both would never end.
    expect(relationsOf("Ticket")).toEqual([{ key: "first_reply", unlessMaking: true }]);
    expect(relationsOf("Task")).toEqual([{ key: "parent", unlessMaking: true }, { key: "assignee", unlessMaking: false }]);
    // A required parent is always made: validate refuses required cycles.
    expect(relationsOf("Reply")).toEqual([{ key: "author", unlessMaking: false }, { key: "ticket", unlessMaking: false }]);
  });
});
