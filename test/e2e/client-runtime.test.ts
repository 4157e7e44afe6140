import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  authClient,
  linkedClient,
  resourceClient,
  restorable,
  Transport,
  unwrap,
  type ResourceTypes,
} from "../../runtime/client/src/index.js";
import { admin, craftToken, decodeClaims, startClinic, type ClinicSession } from "../support/service.js";

/**
 * Issue 34's first part: the client's runtime (runtime/client), driven over real HTTP against the
 * built example on SQLite. The resource types below stand for what the generator will emit from the
 * model; here they only give the runtime's generics something to type.
 */
type PatientHash = `PAT_${string}`;
interface Patient {
  hash: PatientHash;
  name: string;
  cpf: string;
  phone: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
interface Patients extends ResourceTypes {
  Record: Patient;
  Hash: PatientHash;
  Create: { name: string; cpf: string; phone?: string | null };
  Update: { name?: string; cpf?: string; phone?: string | null };
  Params: {
    filter?: { name?: { contains?: string; eq?: string }; created_at?: { gte?: string } };
    search?: string;
    sort?: ("name" | "-name" | "created_at" | "-created_at")[];
    page?: number;
    perPage?: number;
    cursor?: string;
    withTrashed?: boolean;
    with?: ("appointments" | "medical_records")[];
  };
  Relation: "appointments" | "medical_records";
  Loaded: { appointments: { hash: string }[]; medical_records: { public_id: string }[] };
}
type SpecialtyHash = `SPC_${string}`;
interface Specialties extends ResourceTypes {
  Record: { hash: SpecialtyHash; name: string };
  Hash: SpecialtyHash;
  Create: { name: string };
  Update: { name?: string };
  Params: { sort?: ("name" | "-name")[]; cursor?: string };
  Relation: never;
  Loaded: object;
}

describe("the client's runtime against the example service", () => {
  let clinic: ClinicSession;
  let transport: Transport;

  beforeAll(async () => {
    clinic = await startClinic("client", "sqlite");
    transport = new Transport({ baseUrl: `${clinic.service.baseUrl}/` });
  }, 300_000);

  afterAll(async () => {
    await clinic?.stop();
  });

  const patients = () => ({
    ...resourceClient<Patients>(transport, "/api/patients"),
    ...restorable<Patients>(transport, "/api/patients"),
  });

  it("logs in, keeps the token, and answers a wrong password as a typed 401", async () => {
    const auth = authClient<{ hash: string; email: string; role: string }>(transport);
    const refused = await auth.login({ email: admin.email, password: "not it" });
    expect(refused.error?.status).toBe(401);
    expect(transport.getToken()).toBeUndefined();
    const session = unwrap(await auth.login({ email: admin.email, password: admin.password }));
    expect(session.token_type).toBe("Bearer");
    expect(transport.getToken()).toBe(session.access_token);
    expect(unwrap(await auth.me()).email).toBe(admin.email);
  });

  it("gives a 422 with the payload's field names, then a 201, then the record by hash", async () => {
    const api = patients();
    const invalid = await api.create({ name: "Maria Client", cpf: "123" });
    if (invalid.error?.status !== 422) throw new Error(`expected a 422, got ${JSON.stringify(invalid)}`);
    expect(invalid.error.errors.cpf?.[0]).toMatch(/11 digits/);
    const created = unwrap(await api.create({ name: "Maria Client", cpf: "55544433322" }));
    expect(created.hash).toMatch(/^PAT_/);
    expect(unwrap(await api.get(created.hash)).name).toBe("Maria Client");
    const duplicate = await api.create({ name: "Maria Again", cpf: "55544433322" });
    expect(duplicate.error?.status).toBe(422);
    const updated = unwrap(await api.update(created.hash, { phone: null }));
    expect(updated.phone).toBeNull();
  });

  it("walks a filtered list by cursor, and pages by number with links and meta", async () => {
    const api = patients();
    for (let n = 0; n < 7; n += 1)
      unwrap(await api.create({ name: `Walker ${n}`, cpf: `7770000000${n}` }));
    const walked: string[] = [];
    for await (const patient of api.all({ filter: { name: { contains: "walker" } }, perPage: 3, sort: ["name"] }))
      walked.push(patient.name);
    expect(walked).toEqual([0, 1, 2, 3, 4, 5, 6].map((n) => `Walker ${n}`));
    const page = unwrap(await api.list({ filter: { name: { contains: "walker" } }, perPage: 2, page: 2 }));
    expect(page.data).toHaveLength(2);
    expect(page.meta).toMatchObject({ current_page: 2, per_page: 2, total: 7 });
    const unknown = await api.list({ sort: ["nope"] } as never);
    expect(unknown.error?.status).toBe(422);
  });

  it("loads a relation with `with`, deletes and restores, and answers a missing record as a 404", async () => {
    const api = patients();
    const created = unwrap(await api.create({ name: "With Client", cpf: "66655544433" }));
    const loaded = unwrap(await api.get(created.hash, { with: ["appointments"] }));
    expect(loaded.appointments).toEqual([]);
    expect(unwrap(await api.delete(created.hash)).message).toBe("Resource deleted.");
    expect((await api.get(created.hash)).error?.status).toBe(404);
    expect(unwrap(await api.restore(created.hash)).hash).toBe(created.hash);
    const missing = await api.get("PAT_AAAAAAAA");
    expect(missing.error).toMatchObject({ status: 404, message: "Resource not found." });
    await expect(async () => unwrap(missing)).rejects.toBeInstanceOf(ApiError);
  });

  it("links and unlinks through a belongsToMany's own routes", async () => {
    const specialties = resourceClient<Specialties>(transport, "/api/specialties");
    const cardio = unwrap(await specialties.create({ name: "Client Cardio" }));
    const doctor = unwrap(
      await transport.call<{ hash: string }>("POST", "/api/doctors", "data", { name: "Dr. Client", crm: "CRM-CLIENT-1" }),
    );
    const links = linkedClient<string, Specialties, { since?: string | null }>(transport, "/api/doctors", "specialties")(doctor.hash);
    const attached = unwrap(await links.attach(cardio.hash, { since: "2024-01-31" }));
    expect(attached.pivot).toEqual({ since: "2024-01-31" });
    expect(unwrap(await links.list()).data.map((item) => item.hash)).toEqual([cardio.hash]);
    expect(unwrap(await links.detach(cardio.hash)).message).toBe("Resource detached.");
    expect((await links.detach(cardio.hash)).error?.status).toBe(404);
  });

  it("refreshes an expired token once on a 401 when asked to, logs out, and reports a closed port", async () => {
    const auth = authClient(transport);
    const stale = transport.getToken()!;
    unwrap(await auth.refresh());
    expect(transport.getToken()).not.toBe(stale);
    // An expired token within the refresh window, made as the service makes them (contract.test.ts).
    const claims = decodeClaims(transport.getToken()!);
    const now = Math.floor(Date.now() / 1000);
    const expired = () =>
      craftToken({ alg: "HS256", typ: "JWT" }, { ...claims, iat: now - 7200, jti: `client-${Math.random()}`, exp: now - 3600 });
    const plain = new Transport({ baseUrl: clinic.service.baseUrl, token: expired() });
    expect((await resourceClient<Patients>(plain, "/api/patients").list()).error?.status).toBe(401);
    const refreshing = new Transport({ baseUrl: clinic.service.baseUrl, token: expired(), refreshOnUnauthorized: true });
    const before = refreshing.getToken();
    expect(unwrap(await resourceClient<Patients>(refreshing, "/api/patients").list()).data.length).toBeGreaterThan(0);
    expect(refreshing.getToken()).not.toBe(before);
    expect(unwrap(await authClient(transport).logout()).message).toBe("Successfully logged out.");
    expect(transport.getToken()).toBeUndefined();
    const closed = new Transport({ baseUrl: "http://127.0.0.1:9" });
    const failed = await resourceClient<Patients>(closed, "/api/patients").list();
    expect(failed.error).toMatchObject({ status: 0, kind: "network" });
  });
});
