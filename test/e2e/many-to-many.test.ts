import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "../support/hostile.js";
import { startClinic, type ClinicSession, type Request } from "../support/service.js";

/**
 * Issue 23, many-to-many (docs/spec-format.md "Many-to-many"): the example clinic's Doctor ↔
 * Specialty with a `since` date on each link, over real HTTP against the built service, on SQLite
 * and PostgreSQL: payload arrays, the relation's own routes, `?with=` from both sides, filters
 * through the pivot, links removed with a deleted record, and who may do what.
 */
describe.each(databaseTargets)("many-to-many on $label", ({ database }) => {
  let clinic: ClinicSession;
  let api: Request;
  let token: string;
  let receptionist: string;
  const specialty: Record<string, string> = {};

  beforeAll(async () => {
    clinic = await startClinic("many", database);
    ({ api, admin: token, receptionist } = clinic);
    for (const name of ["Cardio", "Pedia", "Derma", "Neuro"]) {
      const reply = await api("POST", "/api/specialties", { token, body: { name } });
      expect(reply.status, reply.text).toBe(201);
      specialty[name] = reply.body.data.hash;
    }
  }, 300_000);

  afterAll(async () => {
    await clinic?.stop();
  });

  let crm = 0;
  const newDoctor = async (specialties: unknown) => api("POST", "/api/doctors", { token, body: { name: "Dr. Many", crm: `CRM-MANY-${(crm += 1)}`, specialties } });
  const linked = async (doctor: string) => {
    const reply = await api("GET", `/api/doctors/${doctor}?with=specialties`, { token });
    expect(reply.status, reply.text).toBe(200);
    return (reply.body.data.specialties as { hash: string; pivot: { since: string | null } }[]).map((entry) => [entry.hash, entry.pivot.since]).sort();
  };

  it("links on create (hashes with pivot fields) and nests them with ?with=, each with its pivot", async () => {
    const reply = await newDoctor([{ hash: specialty.Cardio, since: "2024-01-31" }, { hash: specialty.Pedia }]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data).not.toHaveProperty("specialties");
    expect(await linked(reply.body.data.hash)).toEqual([[specialty.Cardio, "2024-01-31"], [specialty.Pedia, null]].sort());
    // Without pivot fields of its own, the inverse side sees the same links and the same pivot.
    const inverse = await api("GET", `/api/specialties/${specialty.Cardio}?with=doctors`, { token });
    expect(inverse.body.data.doctors.map((doctor: { hash: string }) => doctor.hash)).toContain(reply.body.data.hash);
    expect(inverse.body.data.doctors.find((doctor: { hash: string }) => doctor.hash === reply.body.data.hash).pivot).toEqual({ since: "2024-01-31" });
  });

  it("replaces the whole set on update, and refuses unknown, repeated or malformed items on <relation>.<index>", async () => {
    const doctor = (await newDoctor([{ hash: specialty.Cardio }])).body.data.hash;
    const patched = await api("PATCH", `/api/doctors/${doctor}`, { token, body: { specialties: [{ hash: specialty.Derma, since: "2020-05-01" }, { hash: specialty.Neuro }] } });
    expect(patched.status, patched.text).toBe(200);
    expect(await linked(doctor)).toEqual([[specialty.Derma, "2020-05-01"], [specialty.Neuro, null]].sort());
    const cases: [unknown, string][] = [
      [[{ hash: specialty.Cardio }, { hash: "SPC_AAAAAAAA" }], "specialties.1"],
      [[{ hash: specialty.Cardio }, { hash: specialty.Cardio }], "specialties.1"],
      [[{ hash: "PAT_AAAAAAAA" }], "specialties.0"],
      [[{ hash: specialty.Cardio, since: "2024-02-30" }], "specialties.0.since"],
      [[{ hash: specialty.Cardio, extra: 1 }], "specialties.0.extra"],
      [[{}], "specialties.0.hash"],
      ["SPC_AAAAAAAA", "specialties"],
      [Array.from({ length: 1001 }, () => ({ hash: specialty.Cardio })), "specialties"],
    ];
    for (const [specialties, key] of cases) {
      const reply = await api("PATCH", `/api/doctors/${doctor}`, { token, body: { specialties } });
      expect(reply.status, JSON.stringify(specialties).slice(0, 80)).toBe(422);
      expect(Object.keys(reply.body.errors), JSON.stringify(specialties).slice(0, 80)).toEqual([key]);
    }
    // A bare hash among objects, of a record that exists: told the item's shape, not "invalid".
    const mixed = await api("PATCH", `/api/doctors/${doctor}`, { token, body: { specialties: [{ hash: specialty.Cardio }, specialty.Derma] } });
    expect(mixed.body.errors).toEqual({ "specialties.1": ["The specialties.1 field must be an object with the related record's hash and the pivot's fields."] });
    // Nothing was written by a refused payload.
    expect(await linked(doctor)).toEqual([[specialty.Derma, "2020-05-01"], [specialty.Neuro, null]].sort());
    // An empty list unlinks everything.
    expect((await api("PATCH", `/api/doctors/${doctor}`, { token, body: { specialties: [] } })).status).toBe(200);
    expect(await linked(doctor)).toEqual([]);
  });

  it("serves the relation's own routes: list with the target's list query, attach (idempotent), detach (404 when not linked)", async () => {
    const doctor = (await newDoctor([])).body.data.hash;
    const base = `/api/doctors/${doctor}/specialties`;
    const attached = await api("PUT", `${base}/${specialty.Neuro}`, { token, body: { since: "2023-03-03" } });
    expect(attached.status, attached.text).toBe(200);
    expect(attached.body.data).toMatchObject({ hash: specialty.Neuro, name: "Neuro", pivot: { since: "2023-03-03" } });
    // Again, without a body: still linked once, pivot kept.
    expect((await api("PUT", `${base}/${specialty.Neuro}`, { token })).body.data.pivot).toEqual({ since: "2023-03-03" });
    expect((await api("PUT", `${base}/${specialty.Cardio}`, { token, body: { since: "2019-09-09" } })).status).toBe(200);
    const list = await api("GET", `${base}?sort=-name`, { token });
    expect(list.status, list.text).toBe(200);
    expect(list.body.meta.total).toBe(2);
    expect(list.body.data.map((entry: { name: string; pivot: unknown }) => [entry.name, entry.pivot])).toEqual([["Neuro", { since: "2023-03-03" }], ["Cardio", { since: "2019-09-09" }]]);
    // The target's list query applies: search, filters, cursors.
    expect((await api("GET", `${base}?search=neu`, { token })).body.data.map((entry: { name: string }) => entry.name)).toEqual(["Neuro"]);
    expect((await api("GET", `${base}?cursor=&per_page=1`, { token })).body.meta.next_cursor).toEqual(expect.any(String));
    expect((await api("GET", `${base}?nope=1`, { token })).status).toBe(422);
    expect((await api("PUT", `${base}/${specialty.Neuro}`, { token, body: { since: "not a date" } })).status).toBe(422);
    expect((await api("DELETE", `${base}/${specialty.Neuro}`, { token })).status).toBe(200);
    const again = await api("DELETE", `${base}/${specialty.Neuro}`, { token });
    expect(again.status).toBe(404);
    expect((await api("PUT", `${base}/SPC_AAAAAAAA`, { token })).status).toBe(404);
    expect((await api("GET", "/api/doctors/DOC_AAAAAAAA/specialties", { token })).status).toBe(404);
    // Doctors and specialties are public to read; changing a doctor is for admins only.
    expect((await api("GET", base)).status).toBe(200);
    expect((await api("PUT", `${base}/${specialty.Derma}`)).status).toBe(401);
    expect((await api("PUT", `${base}/${specialty.Derma}`, { token: receptionist })).status).toBe(403);
    expect((await api("DELETE", `${base}/${specialty.Cardio}`, { token: receptionist })).status).toBe(403);
    expect((await api("PATCH", `/api/doctors/${doctor}`, { token: receptionist, body: { specialties: [] } })).status).toBe(403);
    expect((await api("POST", `${base}/${specialty.Derma}`, { token })).status).toBe(405);
  });

  it("filters by linked records through the pivot", async () => {
    const a = (await newDoctor([{ hash: specialty.Pedia }])).body.data.hash;
    const b = (await newDoctor([{ hash: specialty.Derma }, { hash: specialty.Pedia }])).body.data.hash;
    const hashes = async (path: string) => (await api("GET", path, { token })).body.data.map((doctor: { hash: string }) => doctor.hash);
    const pedia = await hashes(`/api/doctors?filter[specialties]=${specialty.Pedia}&per_page=100`);
    expect(pedia).toEqual(expect.arrayContaining([a, b]));
    const derma = await hashes(`/api/doctors?filter[specialties]=${specialty.Derma}&per_page=100`);
    expect(derma).toContain(b);
    expect(derma).not.toContain(a);
    expect(await hashes(`/api/doctors?filter[specialties][in]=${specialty.Derma},${specialty.Pedia}&per_page=100`)).toEqual(expect.arrayContaining([a, b]));
    expect((await api("GET", "/api/doctors?filter[specialties][null]=true", { token })).status).toBe(422);
  });

  it("never links a record deleted at the same moment, nor links one pair twice (200 concurrent pairs)", async () => {
    const doctor = (await newDoctor([])).body.data.hash;
    const rounds = 100;
    for (let round = 0; round < rounds; round += 1) {
      const doomed = (await api("POST", "/api/specialties", { token, body: { name: `Race ${round}` } })).body.data.hash;
      // A link through the payload or the route, at the moment the specialty is deleted.
      const link = round % 2 === 0
        ? api("PATCH", `/api/doctors/${doctor}`, { token, body: { specialties: [{ hash: doomed }] } })
        : api("PUT", `/api/doctors/${doctor}/specialties/${doomed}`, { token });
      const [linking, deleted] = await Promise.all([link, api("DELETE", `/api/specialties/${doomed}`, { token })]);
      expect(deleted.status, deleted.text).toBe(200);
      expect([200, 404, 422], linking.text).toContain(linking.status);
      // The link is gone with the specialty either way: nothing points at a deleted record.
      expect((await linked(doctor)).map(([hash]) => hash)).not.toContain(doomed);
    }
    // The same pair linked twice at once: one link, both answered 200.
    for (let round = 0; round < rounds; round += 1) {
      const extra = (await api("POST", "/api/specialties", { token, body: { name: `Twice ${round}` } })).body.data.hash;
      const both = await Promise.all([0, 1].map(() => api("PUT", `/api/doctors/${doctor}/specialties/${extra}`, { token, body: { since: "2024-01-31" } })));
      expect(both.map((reply) => reply.status)).toEqual([200, 200]);
      const list = await api("GET", `/api/doctors/${doctor}/specialties?filter[name]=${encodeURIComponent(`Twice ${round}`)}`, { token });
      expect(list.body.meta.total).toBe(1);
    }
  }, 300_000);

  it("removes a deleted record's links on both sides", async () => {
    const extra = (await api("POST", "/api/specialties", { token, body: { name: "Temporary" } })).body.data.hash;
    const doctor = (await newDoctor([{ hash: extra }, { hash: specialty.Cardio }])).body.data.hash;
    expect((await api("DELETE", `/api/specialties/${extra}`, { token })).status).toBe(200);
    expect((await linked(doctor)).map(([hash]) => hash)).toEqual([specialty.Cardio]);
    expect((await api("DELETE", `/api/doctors/${doctor}`, { token })).status).toBe(200);
    const cardio = await api("GET", `/api/specialties/${specialty.Cardio}/doctors?per_page=100`, { token });
    expect(cardio.body.data.map((entry: { hash: string }) => entry.hash)).not.toContain(doctor);
  });
});
