import { describe, expect, it } from "vitest";
import { blindDeletes, blindDeleteWarnings, destroyRoles } from "../../src/model/blind-deletes.js";
import type { ResourceSpec, ValidSpecs } from "../../src/spec/types.js";

const resource = (spec: Partial<ResourceSpec> & { name: string }): ResourceSpec => ({ file: `specs/${spec.name.toLowerCase()}.yaml`, fields: [], ...spec });
const project = (resources: ResourceSpec[]): ValidSpecs =>
  ({ project: { auth: { roles: ["admin", "doctor", "receptionist"] } }, resources }) as unknown as ValidSpecs;

describe("blind deletes (a refused delete must not reveal records the caller cannot read)", () => {
  const patient = resource({ name: "Patient", auth: { roles: { destroy: ["admin", "receptionist"] } } });
  const record = (extra: Partial<ResourceSpec> = {}) =>
    resource({ name: "MedicalRecord", relations: [{ name: "patient", type: "belongsTo", resource: "Patient" }], auth: { roles: { index: ["admin", "doctor"] } }, ...extra });

  it("takes destroy from a role that cannot list the records that restrict it, and says why", () => {
    const specs = project([patient, record()]);
    expect(blindDeletes(specs).map(({ roles, blockers }) => ({ roles, blockers }))).toEqual([{ roles: ["receptionist"], blockers: ["MedicalRecord"] }]);
    expect(destroyRoles(specs, patient, blindDeletes(specs))).toEqual(["admin"]);
    expect(blindDeleteWarnings(specs)[0]).toMatch(/^warning: specs\/patient\.yaml auth\.roles\.destroy: the role receptionist may not delete Patient records \(403\)/);
  });

  it("counts records owned by others as unreadable, unless the role bypasses ownership", () => {
    const owned = record({ auth: {}, owner: { relation: "author", bypass: ["admin"] } });
    const open = resource({ name: "Patient" });
    expect(destroyRoles(project([open, owned]), open, blindDeletes(project([open, owned])))).toEqual(["admin"]);
  });

  it("leaves destroy alone when the relation cascades or nulls, or every destroyer reads the records", () => {
    for (const onDelete of ["cascade", "setNull"] as const) {
      const specs = project([patient, record({ relations: [{ name: "patient", type: "belongsTo", resource: "Patient", onDelete }] })]);
      expect(blindDeletes(specs)).toEqual([]);
      expect(destroyRoles(specs, patient, [])).toEqual(["admin", "receptionist"]);
    }
    expect(blindDeletes(project([patient, record({ auth: {} })]))).toEqual([]);
  });
});
