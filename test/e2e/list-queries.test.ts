import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "../support/hostile.js";
import { startClinic, type ClinicSession, type Request } from "../support/service.js";

/**
 * Issue 23, list queries (docs/spec-format.md "List queries"): filter operators, `?search=` and
 * cursor pagination on the example clinic, over real HTTP against the built service, on SQLite and
 * PostgreSQL. Every expectation is computed from the records the test wrote, never hard-coded.
 */
describe.each(databaseTargets)("list queries on $label", ({ database }) => {
  let clinic: ClinicSession;
  let api: Request;
  let token: string;
  let receptionist: string;
  const patients: { hash: string; name: string; phone: string | null }[] = [];
  const appointments: { hash: string; scheduled_at: string; status: string; patient: string }[] = [];

  const names = ["Élodie Martin", "élodie rose", "ÉLODIE", "Sílvia Souza", "SILVA Neto", "100% Real", "100 Real", "a_b", "axb", "Ωmega Ωmega", "ωmega", "back\\slash"];

  beforeAll(async () => {
    clinic = await startClinic("lists", database);
    ({ api, admin: token, receptionist } = clinic);
    for (const [index, name] of names.entries()) {
      const phone = index % 3 === 0 ? null : `55119${String(index).padStart(4, "0")}`;
      const reply = await api("POST", "/api/patients", { token, body: { name, cpf: String(10_000_000_000 + index * 7919), phone } });
      expect(reply.status, reply.text).toBe(201);
      patients.push({ hash: reply.body.data.hash, name, phone });
    }
    const doctor = (await api("POST", "/api/doctors", { token, body: { name: "Dr. Lists", crm: "CRM-LIST-1" } })).body.data.hash;
    const statuses = ["scheduled", "completed", "cancelled"];
    for (let day = 1; day <= 9; day += 1) {
      const body = { scheduled_at: `2026-03-0${day}T10:00:00.000Z`, status: statuses[day % 3], patient: patients[day % 4]!.hash, doctor };
      const reply = await api("POST", "/api/appointments", { token, body });
      expect(reply.status, reply.text).toBe(201);
      appointments.push({ hash: reply.body.data.hash, scheduled_at: body.scheduled_at, status: body.status!, patient: body.patient });
    }
  }, 300_000);

  afterAll(async () => {
    await clinic?.stop();
  });

  /** The hashes a list answers (at most 100), in order. */
  const hashes = async (path: string, as = token): Promise<string[]> => {
    const reply = await api("GET", `${path}${path.includes("?") ? "&" : "?"}per_page=100`, { token: as });
    expect(reply.status, `${path}: ${reply.text}`).toBe(200);
    return reply.body.data.map((record: { hash: string }) => record.hash);
  };
  const patientsWhere = (keep: (patient: (typeof patients)[number]) => boolean) => patients.filter(keep).map((patient) => patient.hash).sort();
  const q = encodeURIComponent;

  it("matches text case-insensitively in every alphabet, on both databases", async () => {
    const folded = (text: string) => text.toLowerCase();
    for (const needle of ["élo", "ÉLO", "ΩMEGA", "ωmega", "sil", "SÍL"]) {
      const expected = patientsWhere((patient) => folded(patient.name).includes(folded(needle)));
      expect(expected.length, needle).toBeGreaterThan(0);
      expect((await hashes(`/api/patients?filter[name][contains]=${q(needle)}`)).sort(), needle).toEqual(expected);
    }
    expect((await hashes(`/api/patients?filter[name][starts_with]=${q("élodie")}`)).sort()).toEqual(patientsWhere((patient) => folded(patient.name).startsWith("élodie")));
    expect((await hashes(`/api/patients?filter[name][ends_with]=${q("MEGA")}`)).sort()).toEqual(patientsWhere((patient) => folded(patient.name).endsWith("mega")));
  });

  it("takes %, _ and \\ in a text literally", async () => {
    for (const needle of ["%", "0%", "_", "a_b", "\\", "%_"]) {
      expect((await hashes(`/api/patients?filter[name][contains]=${q(needle)}`)).sort(), needle).toEqual(patientsWhere((patient) => patient.name.toLowerCase().includes(needle)));
    }
  });

  it("searches every word in the searchable fields", async () => {
    const matches = (words: string[]) => patientsWhere((patient) => words.every((word) => patient.name.toLowerCase().includes(word.toLowerCase())));
    for (const search of ["élodie", "ÉLODIE martin", "real 100", "  silva  ", "nobody"]) {
      expect((await hashes(`/api/patients?search=${q(search)}`)).sort(), search).toEqual(matches(search.split(/\s+/).filter(Boolean)));
    }
    // Combined with a filter and paged as any list.
    const combined = await api("GET", `/api/patients?search=${q("élodie")}&filter[phone][null]=false&per_page=1`, { token });
    expect(combined.body.meta.total).toBe(patients.filter((patient) => patient.name.toLowerCase().includes("élodie") && patient.phone !== null).length);
    // A resource without searchable fields, too many words, text no column holds: 422 on search.
    for (const path of ["/api/doctors?search=ana", `/api/patients?search=${q("a b c d e f g h i")}`, `/api/patients?search=${q("a\u0000")}`]) {
      const reply = await api("GET", path, { token });
      expect(reply.status, path).toBe(422);
      expect(Object.keys(reply.body.errors), path).toEqual(["search"]);
    }
  });

  it("filters by range, list and null operators with values parsed as the field's type", async () => {
    const between = (from: string, to: string) => appointments.filter((a) => a.scheduled_at >= from && a.scheduled_at <= to).map((a) => a.hash).sort();
    expect((await hashes("/api/appointments?filter[scheduled_at][gte]=2026-03-03T00:00:00Z&filter[scheduled_at][lt]=2026-03-06T00:00:00Z")).sort()).toEqual(between("2026-03-03", "2026-03-06"));
    expect((await hashes("/api/appointments?filter[scheduled_at][between]=2026-03-02T10:00:00Z,2026-03-04T10:00:00Z")).sort()).toEqual(between("2026-03-02T10:00:00.000Z", "2026-03-04T10:00:00.000Z"));
    // The same instant written with an offset.
    expect((await hashes("/api/appointments?filter[scheduled_at][gt]=2026-03-08T12:00:00%2B02:00")).sort()).toEqual(appointments.filter((a) => a.scheduled_at > "2026-03-08T10:00:00.000Z").map((a) => a.hash).sort());
    expect((await hashes("/api/appointments?filter[status][in]=scheduled,cancelled")).sort()).toEqual(appointments.filter((a) => a.status !== "completed").map((a) => a.hash).sort());
    expect((await hashes("/api/appointments?filter[status][ne]=completed")).sort()).toEqual(appointments.filter((a) => a.status !== "completed").map((a) => a.hash).sort());
    expect((await hashes("/api/appointments?filter[status][nin]=completed,cancelled")).sort()).toEqual(appointments.filter((a) => a.status === "scheduled").map((a) => a.hash).sort());
    expect((await hashes("/api/appointments?filter[status]=completed")).sort()).toEqual(appointments.filter((a) => a.status === "completed").map((a) => a.hash).sort());
    const two = [patients[1]!.hash, patients[2]!.hash];
    expect((await hashes(`/api/appointments?filter[patient][in]=${two.join(",")}`)).sort()).toEqual(appointments.filter((a) => two.includes(a.patient)).map((a) => a.hash).sort());
    expect((await hashes("/api/patients?filter[phone][null]=true")).sort()).toEqual(patientsWhere((patient) => patient.phone === null));
    expect((await hashes("/api/patients?filter[phone][null]=false")).sort()).toEqual(patientsWhere((patient) => patient.phone !== null));
    // ne keeps the records without a value: null is not that value either.
    const phone = patients.find((patient) => patient.phone !== null)!.phone!;
    expect((await hashes(`/api/patients?filter[phone][ne]=${phone}`)).sort()).toEqual(patientsWhere((patient) => patient.phone !== phone));
  });

  it("refuses anything outside the declared fields, operators and types with a 422 naming filter.<field>", async () => {
    const cases: [string, string][] = [
      ["/api/patients?filter[nope]=1", "filter.nope"],
      ["/api/patients?filter[constructor]=1", "filter.constructor"],
      ["/api/patients?filter[name][gte]=a", "filter.name"],
      ["/api/patients?filter[name][__proto__]=a", "filter.name"],
      ["/api/appointments?filter[status][contains]=sch", "filter.status"],
      ["/api/appointments?filter[status][in]=scheduled,bogus", "filter.status"],
      ["/api/appointments?filter[scheduled_at][gte]=yesterday", "filter.scheduled_at"],
      ["/api/appointments?filter[scheduled_at][gte]=2026-02-30T00:00:00Z", "filter.scheduled_at"],
      ["/api/appointments?filter[scheduled_at][between]=2026-03-05T00:00:00Z,2026-03-01T00:00:00Z", "filter.scheduled_at"],
      ["/api/appointments?filter[scheduled_at][between]=2026-03-05T00:00:00Z", "filter.scheduled_at"],
      ["/api/appointments?filter[patient][in]=nothash", "filter.patient"],
      ["/api/appointments?filter[patient][contains]=PAT", "filter.patient"],
      ["/api/patients?filter[phone][null]=yes", "filter.phone"],
      ["/api/patients?filter[name][contains]=", "filter.name"],
      ["/api/patients?filter[name][contains]=a&filter[name][contains]=b", "filter.name"],
      ["/api/patients?filter[name]=a&name=b", "name"],
      [`/api/patients?filter[name][in]=${Array.from({ length: 101 }, (_, i) => i).join(",")}`, "filter.name"],
      ["/api/patients?filter=name", "filter"],
      ["/api/patients?filter[name][eq][x]=a", "filter[name][eq][x]"],
    ];
    for (const [path, key] of cases) {
      const reply = await api("GET", path, { token });
      expect(reply.status, path).toBe(422);
      expect(Object.keys(reply.body.errors), path).toEqual([key]);
    }
    // A field a role does not see is no filter for it (notes: admins and doctors only).
    expect((await api("GET", "/api/appointments?filter[notes][contains]=a", { token: receptionist })).status).toBe(422);
    expect((await api("GET", "/api/appointments?filter[notes][contains]=a", { token })).status).toBe(200);
  });

  describe("cursor pagination", () => {
    /** Every page of a cursor walk, forwards, then backwards from the last page. */
    const walk = async (query: string, perPage: number, as = token) => {
      const pages: string[][] = [];
      const cursors: { next: string | null; prev: string | null }[] = [];
      let cursor = "";
      for (let guard = 0; guard < 50; guard += 1) {
        const reply = await api("GET", `/api/patients?${query}&per_page=${perPage}&cursor=${q(cursor)}`, { token: as });
        expect(reply.status, reply.text).toBe(200);
        expect(Object.keys(reply.body.meta).sort()).toEqual(["next_cursor", "path", "per_page", "prev_cursor"]);
        expect(Object.keys(reply.body.links).sort()).toEqual(["next", "prev"]);
        pages.push(reply.body.data.map((record: { hash: string }) => record.hash));
        cursors.push({ next: reply.body.meta.next_cursor, prev: reply.body.meta.prev_cursor });
        if (reply.body.meta.next_cursor === null) break;
        expect(reply.body.links.next).toContain(`cursor=${reply.body.meta.next_cursor}`);
        cursor = reply.body.meta.next_cursor;
      }
      return { pages, cursors };
    };

    for (const sort of ["", "name", "-name", "phone,-name", "-phone,name", "-created_at"]) {
      it(`pages by key exactly as by number${sort ? ` (sort=${sort})` : ""}, forwards and backwards`, async () => {
        const query = sort ? `sort=${sort}` : "";
        const all = await hashes(`/api/patients${query ? `?${query}` : ""}`);
        const { pages, cursors } = await walk(query, 5);
        expect(pages.flat()).toEqual(all);
        expect(pages.at(-1)!.length).toBeGreaterThan(0);
        expect(cursors[0]!.prev).toBeNull();
        // Backwards from the last page: the same pages in reverse.
        let prev = cursors.at(-1)!.prev;
        for (let index = pages.length - 2; index >= 0; index -= 1) {
          const reply = await api("GET", `/api/patients?${query}&per_page=5&cursor=${q(prev!)}`, { token });
          expect(reply.status, reply.text).toBe(200);
          expect(reply.body.data.map((record: { hash: string }) => record.hash)).toEqual(pages[index]);
          prev = reply.body.meta.prev_cursor;
        }
        expect(prev).toBeNull();
      });
    }

    it("pages a filtered, searched list and keeps its parameters in the links", async () => {
      const query = `search=${q("élodie")}&sort=name`;
      const all = await hashes(`/api/patients?${query}`);
      const { pages } = await walk(query, 1);
      expect(pages.flat()).toEqual(all);
      const first = await api("GET", `/api/patients?${query}&per_page=1&cursor=`, { token });
      expect(first.body.links.next).toContain("search=");
      expect(first.body.links.next).not.toMatch(/[?&]page=/);
    });

    it("refuses a forged, altered or foreign cursor with a 422 on cursor", async () => {
      const first = await api("GET", "/api/patients?sort=name&per_page=2&cursor=", { token });
      const cursor = first.body.meta.next_cursor as string;
      const flipped = `${cursor.slice(0, 20)}${cursor[20] === "A" ? "B" : "A"}${cursor.slice(21)}`;
      for (const [path, as] of [
        [`/api/patients?sort=name&cursor=${q(flipped)}`, token],
        [`/api/patients?sort=name&cursor=${q(cursor.slice(0, -2))}`, token],
        ["/api/patients?sort=name&cursor=bm90IGEgY3Vyc29y", token],
        ["/api/patients?sort=name&cursor=%F0%9F%92%A9", token],
        // Another query's cursor, and another user's.
        [`/api/patients?sort=-name&cursor=${q(cursor)}`, token],
        [`/api/patients?sort=name&search=a&cursor=${q(cursor)}`, token],
        [`/api/doctors?sort=name&cursor=${q(cursor)}`, token],
        [`/api/patients?sort=name&cursor=${q(cursor)}`, receptionist],
      ] as const) {
        const reply = await api("GET", path, { token: as });
        expect(reply.status, path).toBe(422);
        expect(Object.keys(reply.body.errors), path).toEqual(["cursor"]);
      }
      // per_page may change between pages; page may not be mixed in.
      expect((await api("GET", `/api/patients?sort=name&per_page=3&cursor=${q(cursor)}`, { token })).status).toBe(200);
      expect((await api("GET", `/api/patients?sort=name&page=2&cursor=${q(cursor)}`, { token })).status).toBe(422);
    });
  });
});
