import { describe, expect, it } from "vitest";
import { userFieldValues } from "../../runtime/common/src/auth/auth.service.js";
import { Decimal } from "@prisma/client/runtime/client";
import type { TableSpec } from "../../runtime/common/src/data/table.js";
import { messageTable } from "../../runtime/common/src/base/validation.js";
import type { ResourceDescriptor } from "../../runtime/common/src/resource/descriptor.js";
import { createSerializer, type Serializer } from "../../runtime/common/src/resource/serializer.js";

const doctors: TableSpec = { name: "doctors", event: "doctor", softDelete: false, columns: { name: "string" }, relations: {},
 restrictedBy: [], cascadeTo: [], nullOnDelete: [] };
const visits: TableSpec = {
  name: "visits",
  event: "visit",
  softDelete: false,
  columns: { on: "date", fee: "decimal", secret: "string", doctor_id: "integer" },
  relations: { doctor: { kind: "belongsTo", foreignKey: "doctor_id", target: () => doctors } },
  restrictedBy: [],
  cascadeTo: [],
  nullOnDelete: [],
};
const resource = (table: TableSpec, output: string[]) => ({ table, output, scales: { fee: 2 } }) as unknown as ResourceDescriptor;

describe("createSerializer (runtime/common/src/resource/serializer.ts)", () => {
  const serializers = new Map<TableSpec, Serializer>();
  serializers.set(doctors, createSerializer(resource(doctors, ["hash", "name"]), (table) => serializers.get(table)!));
  const serialize = createSerializer(resource(visits, ["public_id", "on", "fee", "doctor", "created_at"]), (table) => serializers.get(table)!);
  const row = {
    id: 7,
    hash: "VIS_AAAAAAAA",
    on: new Date("2024-02-29T00:00:00Z"),
    fee: new Decimal("12.5"),
    secret: "never output",
    doctor_id: 3,
    doctor: { id: 3, hash: "DOC_AAAAAAAA", name: "Dr. Lee" },
    created_at: new Date("2024-03-01T10:00:00Z"),
  };

  it("outputs the allow-list only, each value in its output form", () => {
    expect(serialize(row)).toEqual({
      public_id: "VIS_AAAAAAAA",
      on: "2024-02-29",
      fee: "12.50",
      doctor: "DOC_AAAAAAAA",
      created_at: "2024-03-01T10:00:00.000Z",
    });
  });

  it("nests a loaded relation through its own resource's serializer", () => {
    expect(serialize(row, ["doctor"]).doctor).toEqual({ hash: "DOC_AAAAAAAA", name: "Dr. Lee" });
  });
});

describe("messageTable (runtime/common/src/base/validation.ts)", () => {
  it("turns each message written once into a keyword lookup that no prototype name reaches", () => {
    const table = messageTable({ name: [["The name field is required.", "required", "null"], ["The name field must be a string.", "type"]] });
    expect(table.name!.null).toBe("The name field is required.");
    expect(table.name!.type).toBe("The name field must be a string.");
    expect(table.name!.toString).toBeUndefined();
    expect(table.constructor).toBeUndefined();
  });
});

describe("the project's user fields as output (userFieldValues)", () => {
  it("outputs each kind as records do; a decimal declared without scale has none", () => {
    const five = { toFixed: (digits: number) => (5).toFixed(digits) };
    const fields = { whole: { kind: "decimal" as const }, credit: { kind: "decimal" as const, scale: 2 }, born_on: { kind: "date" as const }, nickname: { kind: "string" as const } };
    expect(userFieldValues(fields, { whole: five, credit: five, born_on: new Date("2001-02-03T00:00:00Z"), nickname: null })).toEqual({ whole: "5", credit: "5.00", born_on: "2001-02-03", nickname: null });
  });
});
