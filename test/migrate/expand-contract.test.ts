import { describe, expect, it } from "vitest";
import { assessChanges } from "../../src/migrate/changes.js";
import { contractStatements, expandStatements, needsContract, unionPlan } from "../../src/migrate/expand-contract.js";
import type { Renames } from "../../src/migrate/renames.js";
import { parseSchemaShape } from "../../src/migrate/schema-shape.js";
import type { SchemaEvolution } from "../../src/model/schema-evolution.js";

const model = (name: string, table: string, fields: string[]) => [`model ${name} {`, "  id         Int      @id @default(autoincrement())", ...fields.map((field) => `  ${field}`), "  created_at DateTime @default(now())", "", `  @@map("${table}")`, "}"].join("\n");
const evolution = (fills: SchemaEvolution["fills"] = []): SchemaEvolution => ({ tables: [], columns: [], fills, sources: {}, events: {} });

describe("expand and contract (deploy: rolling, src/migrate/expand-contract.ts)", () => {
  const previous = model("Member", "members", ["name     String @db.VarChar(120)", "nickname String?", "age      Int?"]);

  it("keeps the old build's columns in the union: a renamed one beside the new, a dropped one optional, a new required one with its backfill as default", () => {
    const next = model("Member", "members", ["full_name String @db.VarChar(120)", "age      Int", "level    Int"]);
    const renames: Renames = { tables: [], columns: [{ table: "members", from: "name", to: "full_name" }] };
    const fills: SchemaEvolution["fills"] = [
      { table: "members", column: "level", type: "integer", value: 1 },
      { table: "members", column: "age", type: "integer", value: 0 },
    ];
    const renamed = previous.replace("name     String", "full_name String");
    const assessment = assessChanges(parseSchemaShape(renamed), parseSchemaShape(next), evolution(fills));
    expect(needsContract(renames, parseSchemaShape(renamed), parseSchemaShape(next), assessment)).toBe(true);
    const plan = unionPlan(previous, next, renames, assessment);
    const union = parseSchemaShape(plan.union).get("members")!;
    expect(union.columns.get("full_name")!.optional).toBe(true);
    expect(union.columns.get("name")!.optional).toBe(true);
    expect(union.columns.get("nickname")!.optional).toBe(true);
    expect(union.columns.get("age")!.optional).toBe(true);
    expect(union.columns.get("level")!.line).toContain("@default(1)");
    const expand = expandStatements(plan).after.join("\n");
    expect(expand).toContain(`UPDATE "members" SET "full_name" = "name" WHERE "full_name" IS NULL;`);
    expect(expand).toContain(`CREATE TRIGGER "hashapi_sync_members_full_name" BEFORE INSERT OR UPDATE ON "members"`);
    expect(expand).toContain(`UPDATE "members" SET "age" = 0 WHERE "age" IS NULL;`);
    const contract = contractStatements(plan).join("\n");
    expect(contract).toContain(`DROP TRIGGER IF EXISTS "hashapi_sync_members_full_name" ON "members";`);
    // Rows the old build wrote without an age since the expand get it before the column is required.
    expect(contract).toContain(`UPDATE "members" SET "age" = 0 WHERE "age" IS NULL;`);
  });

  it("needs no contract for what the old build survives: a new optional field", () => {
    const next = model("Member", "members", ["name     String @db.VarChar(120)", "nickname String?", "age      Int?", "notes    String?"]);
    const none: Renames = { tables: [], columns: [] };
    expect(needsContract(none, parseSchemaShape(previous), parseSchemaShape(next), assessChanges(parseSchemaShape(previous), parseSchemaShape(next), evolution()))).toBe(false);
  });

  it("refuses what both builds cannot share, saying how to do it in two deploys", () => {
    const retyped = model("Member", "members", ["name     String @db.VarChar(120)", "nickname String?", "age      String?"]);
    const none: Renames = { tables: [], columns: [] };
    expect(() => unionPlan(previous, retyped, none, assessChanges(parseSchemaShape(previous), parseSchemaShape(retyped), evolution()))).toThrow(
      /members\.age changes type from Int to String: both builds would read one column as two types\. Add a field of the new type under a new name/,
    );
    const dropped = `${previous}\n\n${model("Tag", "tags", ["label String"])}`;
    expect(() => unionPlan(dropped, previous, none, assessChanges(parseSchemaShape(dropped), parseSchemaShape(previous), evolution()))).toThrow(/table tags is dropped: the old build still serves it/);
  });
});
