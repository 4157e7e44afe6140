import { describe, expect, it } from "vitest";
import type { TableSpec } from "../../runtime/common/src/data/table.js";
import { ExitGate, type ExitLinks, type ExitSubject, type Reader } from "../../runtime/common/src/resource/exits.js";
import { everyField, fieldAccess } from "../../runtime/common/src/resource/field-access.js";
import { hashPrefix } from "../../runtime/common/src/base/hash-id.js";

/**
 * The one gate every exit passes (issue 45), decided without a database: which stored keys of an
 * event each reader sees, under the specs as they are now, and who it is told wrote it.
 */

const noList = { sortable: [], filters: {}, relations: [], softDelete: false, defaultPerPage: 1, maxPerPage: 1 };
const table = { name: "appointments", event: "appointment", softDelete: false, columns: {}, relations: {}, restrictedBy: [], cascadeTo: [], nullOnDelete: [] } as unknown as TableSpec;

function subject(overrides: Partial<ExitSubject> = {}, visibleTo: Record<string, string[]> = {}): ExitSubject {
  return {
    table,
    prefix: "APT",
    recorded: ["status", "clinical_notes", "patient"],
    hiddenFrom: fieldAccess(visibleTo, undefined, noList).hiddenFrom,
    reader: { public: false },
    decidesPerRecord: false,
    links: [],
    serialize: (row) => ({ ...(row as object) }),
    ...overrides,
  };
}

const gate = (subjects: ExitSubject[]) => new ExitGate(subjects, () => { throw new Error("no database in these tests"); });
const user = (role: string) => ({ id: 1, hash: "USR_AAAAAAAA", name: "Ann", email: "ann@example.com", role });
const caller = (role?: string): Reader => ({ kind: "caller", user: role === undefined ? undefined : user(role) });

describe("the exit gate", () => {
  const stored = { status: [null, "scheduled"], notes: [null, "an old key, renamed since"], clinical_notes: [null, "SECRET"], phone: [null, "+1 555"], patient: [null, "PAT_AAAAAAAA"] };

  it("shows only the keys the record shows the reader now: unknown, removed and hidden keys never", () => {
    const appointments = subject({}, { clinical_notes: ["admin", "doctor"] });
    const exits = gate([appointments]);
    expect(exits.changes(appointments, caller("admin"), stored)).toEqual({ status: [null, "scheduled"], clinical_notes: [null, "SECRET"], patient: [null, "PAT_AAAAAAAA"] });
    expect(exits.changes(appointments, caller("receptionist"), stored)).toEqual({ status: [null, "scheduled"], patient: [null, "PAT_AAAAAAAA"] });
    expect(exits.changes(appointments, caller(), stored)).toEqual({ status: [null, "scheduled"], patient: [null, "PAT_AAAAAAAA"] });
    expect(exits.changes(appointments, { kind: "role", role: "doctor" }, stored)).toHaveProperty("clinical_notes");
    // The service itself sees every field the record outputs, and still nothing it does not output.
    expect(Object.keys(exits.changes(appointments, { kind: "system" }, stored)).sort()).toEqual(["clinical_notes", "patient", "status"]);
    // A role since removed from the specs sees no field limited to roles.
    expect(exits.changes(appointments, caller("gone"), stored)).not.toHaveProperty("clinical_notes");
  });

  it("shows a link's keys and its pivot fields to readers who may list its records", () => {
    const open: ExitLinks = { keys: ["specialties", "specialties.since"], listPublic: true, narrowed: false };
    const byRole: ExitLinks = { keys: ["tags"], listPublic: false, listRoles: ["admin"], narrowed: false };
    const owned: ExitLinks = { keys: ["notes"], listPublic: false, narrowed: { bypass: ["admin"] } };
    const doctors = subject({ prefix: "DOC", recorded: ["name"], links: [open, byRole, owned] });
    const exits = gate([doctors]);
    const linked = { specialties: [null, "SPC_AAAAAAAA"], "specialties.since": [null, "2024-01-31"], tags: [null, "TAG_AAAAAAAA"], notes: [null, "NOT_AAAAAAAA"] };
    expect(Object.keys(exits.changes(doctors, caller(), linked)).sort()).toEqual(["specialties", "specialties.since"]);
    expect(Object.keys(exits.changes(doctors, caller("receptionist"), linked)).sort()).toEqual(["specialties", "specialties.since"]);
    expect(Object.keys(exits.changes(doctors, caller("admin"), linked)).sort()).toEqual(["notes", "specialties", "specialties.since", "tags"]);
    expect(Object.keys(exits.changes(doctors, { kind: "system" }, linked)).sort()).toEqual(["notes", "specialties", "specialties.since", "tags"]);
  });

  it("tells a caller without a token that a user wrote, not who; null stays seeds and scripts", () => {
    const exits = gate([subject()]);
    const actor = { hash: "USR_AAAAAAAA", name: "Ann" };
    expect(exits.actor(caller(), actor)).toEqual({ hash: null, name: null });
    expect(exits.actor(caller("receptionist"), actor)).toEqual(actor);
    expect(exits.actor({ kind: "role", role: "admin" }, actor)).toEqual(actor);
    expect(exits.actor(caller(), null)).toBeNull();
  });

  it("lets a role hear a resource only when it may show its records and reaches more than its own", () => {
    const exits = gate([]);
    expect(exits.roleMayRead(subject({ reader: { public: false, showRoles: ["admin", "doctor"] } }), "receptionist")).toBe(false);
    expect(exits.roleMayRead(subject({ reader: { public: false, showRoles: ["admin", "doctor"] } }), "doctor")).toBe(true);
    const owned = subject({ owner: { column: "user_id", through: "doctor", bypass: ["admin", "receptionist"] } });
    expect(exits.roleMayRead(owned, "doctor")).toBe(false);
    expect(exits.roleMayRead(owned, "receptionist")).toBe(true);
    expect(exits.roleMayRead(subject(), "anyone")).toBe(true);
  });

  it("finds a record's resource by its public id's prefix, which a renamed resource keeps", () => {
    const appointments = subject();
    const exits = gate([appointments]);
    expect(exits.subjectOf("APT_7KX9MQ2B")).toBe(appointments);
    expect(exits.subjectOf("PAT_7KX9MQ2B")).toBeUndefined();
    expect(hashPrefix("no-prefix")).toBe("");
    expect(exits.subjectOf("no-prefix")).toBeUndefined();
  });

  it("decides the service's own reads with a symbol no role can be", () => {
    const hidden = fieldAccess({ clinical_notes: ["doctor"] }, undefined, noList).hiddenFrom;
    expect(hidden(everyField)).toBeUndefined();
    expect(hidden(String(everyField.description))).toEqual(new Set(["clinical_notes"]));
  });
});
