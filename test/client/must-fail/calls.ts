// Each line marked `error:` must not compile, with a message that holds the text after it
// (test/client/types.test.ts); every other line must.
import { createClient, unwrap, type DoctorHash, type PatientHash } from "../../../generated/client/src/index.js";

export async function calls(patient: PatientHash, doctor: DoctorHash) {
  const api = createClient({ baseUrl: "http://127.0.0.1:3000" });
  await api.doctors.get(doctor, { with: ["specialtys"] }); // error: "specialtys"
  await api.patients.list({ sort: ["nope"] }); // error: "nope"
  await api.appointments.list({ filter: { status: { contains: "sched" } } }); // error: contains
  await api.appointments.list({ filter: { status: { eq: "postponed" } } }); // error: "postponed"
  await api.patients.get(doctor); // error: `PAT_${string}`
  await api.patients.create({ name: "Maria" }); // error: cpf
  const record = unwrap(await api.patients.get(patient, { with: ["medical_records"] })).medical_records[0]!;
  record.doctor.name; // error: name
  const shown = unwrap(await api.doctors.get(doctor));
  shown.user; // error: user
  const appointment = unwrap(await api.appointments.get("APT_AAAAAAAA"));
  const notes: string | null = appointment.notes; // error: undefined
  const created = await api.patients.create({ name: "Maria", cpf: "12345678901" });
  if (created.error?.status === 422) created.error.errors.nope; // error: nope
  if (created.error?.status === 404) created.error.errors; // error: errors
  await api.specialties.restore("SPC_AAAAAAAA"); // error: restore
  await api.patients.list({ filter: { created_at: { gte: "2026-01-01T00:00:00Z" } } }); // error: created_at
  void notes;
  void patient;
}
