// Compiles: the example's generated client types what each call may send and what it gets back.
// (`npm run typecheck` compiles this file; test/client/types.test.ts also checks it on its own.)
import {
  createClient,
  unwrap,
  type Appointment,
  type DoctorHash,
  type DoctorNested,
  type MedicalRecord,
  type MedicalRecordNested,
  type Patient,
  type PatientHash,
  type SpecialtyNested,
} from "../../../generated/client/src/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const holds = <T extends true>(value: T) => value;

export async function calls(patient: PatientHash, doctor: DoctorHash) {
  const api = createClient({ baseUrl: "http://127.0.0.1:3000" });
  // A nested record's own belongsTo is the related hash; `with` adds the relations it names.
  const shown = unwrap(await api.patients.get(patient));
  holds<Equal<"medical_records" extends keyof typeof shown ? true : false, false>>(true);
  const loaded = unwrap(await api.patients.get(patient, { with: ["medical_records"] }));
  const nested: MedicalRecordNested | undefined = loaded.medical_records[0];
  holds<Equal<NonNullable<typeof nested>["doctor"], DoctorHash | null>>(true);
  // A belongsTo is its hash, or with `with` the related record (null when the record has none).
  const record: MedicalRecord = unwrap(await api.medicalRecords.get("MRE_AAAAAAAA"));
  holds<Equal<typeof record.doctor, DoctorHash | null>>(true);
  const withDoctor = unwrap(await api.medicalRecords.get("MRE_AAAAAAAA", { with: ["doctor"] }));
  holds<Equal<typeof withDoctor.doctor, DoctorNested | null>>(true);
  holds<Equal<typeof withDoctor.patient, PatientHash>>(true);
  // A list's `with` widens each item; a belongsToMany brings each link's pivot values.
  const page = unwrap(await api.doctors.list({ with: ["specialties"], sort: ["-name"], filter: { specialty: { in: ["cardiology"] } } }));
  holds<Equal<(typeof page.data)[number]["specialties"], (SpecialtyNested & { pivot: { since: string | null } })[]>>(true);
  // Eager relations are always records; fields only some roles see are optional.
  const appointment: Appointment = unwrap(await api.appointments.get("APT_AAAAAAAA"));
  holds<Equal<typeof appointment.doctor, DoctorNested>>(true);
  holds<Equal<typeof appointment.notes, string | null | undefined>>(true);
  // A 422's errors are keyed by the payload's fields.
  const created = await api.appointments.create({ scheduled_at: "2026-12-01T10:00:00Z", patient, doctor });
  if (created.error?.status === 422) {
    const errors = created.error.errors;
    holds<Equal<keyof typeof errors, "scheduled_at" | "status" | "notes" | "patient" | "doctor">>(true);
  } else if (created.error?.status === 429) {
    const wait = created.error.retryAfter;
    holds<Equal<typeof wait, number | undefined>>(true);
  } else if (created.error?.status === 0) {
    const kind = created.error.kind;
    holds<Equal<typeof kind, "network">>(true);
  }
  // Filters take each field's operators with values of its type.
  await api.appointments.list({ filter: { scheduled_at: { between: ["2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"] }, doctor: { eq: doctor }, notes: { null: true } } });
  await api.patients.list({ search: "maria", withTrashed: true, cursor: "" });
  for await (const item of api.patients.all({ filter: { name: { contains: "sil" } } })) holds<Equal<typeof item.hash, PatientHash>>(true);
}

/** A first user's typical session, on the example's specs: every call of it compiles. */
export async function brief(hash: PatientHash, doctorHash: DoctorHash) {
  const api = createClient({ baseUrl: "http://127.0.0.1:3000", headers: { "X-Request-Id": "brief" } });
  unwrap(await api.auth.login({ email: "ada@example.com", password: "a long password" }));
  const me = unwrap(await api.auth.me());
  holds<Equal<typeof me.role, "admin" | "doctor" | "receptionist">>(true);
  await api.auth.refresh();
  const created = await api.patients.create({ name: "Maria Silva", cpf: "12345678901" });
  if (created.error?.status === 422) {
    const cpf = created.error.errors.cpf;
    holds<Equal<typeof cpf, string[] | undefined>>(true);
  }
  const patient: Patient = unwrap(created);
  const page = unwrap(await api.patients.list({ filter: { name: { contains: "sil" } }, search: "maria", sort: ["-name"], perPage: 20, page: 2 }));
  holds<Equal<(typeof page.data)[number], Patient>>(true);
  for await (const each of api.patients.all({ filter: { name: { contains: "sil" } } })) void each;
  await api.patients.update(hash, { phone: null });
  await api.patients.delete(hash);
  await api.patients.restore(hash);
  await api.doctors.specialties(doctorHash).list({ sort: ["name"] });
  await api.doctors.specialties(doctorHash).attach("SPC_AAAAAAAA", { since: "2024-01-31" });
  await api.doctors.specialties(doctorHash).detach("SPC_AAAAAAAA");
  api.setToken(undefined);
  await api.auth.logout();
  return patient;
}
