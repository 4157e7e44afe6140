// Bundled by esbuild into an IIFE and run in headless Chromium by test/e2e/client.test.ts: the
// example's generated client, as a front end would use it, from the page's own origin.
import { createClient, unwrap } from "../../../generated/client/src/index.js";

interface Owner {
  email: string;
  password: string;
  /** An appointment of another doctor than this user's. */
  theirs: string;
}

async function scenario(baseUrl: string, email: string, password: string, owner: Owner): Promise<unknown[]> {
  const steps: unknown[] = [];
  const api = createClient({ baseUrl });
  steps.push(["login", (await api.auth.login({ email, password })).error?.status ?? 200]);
  const invalid = await api.patients.create({ name: "Browser Maria", cpf: "12" });
  steps.push(["422", invalid.error?.status, invalid.error?.status === 422 ? Object.keys(invalid.error.errors) : []]);
  const created = unwrap(await api.patients.create({ name: "Browser Maria", cpf: "98765432100" }));
  steps.push(["201", created.hash.startsWith("PAT_")]);
  const walked: string[] = [];
  for await (const patient of api.patients.all({ filter: { name: { starts_with: "browser" } }, perPage: 1 }))
    walked.push(patient.name);
  steps.push(["walk", walked]);
  const doctors = unwrap(await api.doctors.list({ with: ["specialties"], perPage: 1 }));
  steps.push(["with", Array.isArray(doctors.data[0]?.specialties)]);
  steps.push(["404", (await api.patients.get("PAT_AAAAAAAA")).error?.status]);
  // A doctor's own records only: another doctor's appointment is the 404 of a missing one.
  const doctor = createClient({ baseUrl });
  unwrap(await doctor.auth.login({ email: owner.email, password: owner.password }));
  steps.push(["ownership 404", (await doctor.appointments.get(owner.theirs as `APT_${string}`)).error?.status]);
  steps.push(["logout", (await api.auth.logout()).error?.status ?? 200]);
  steps.push(["after logout", (await api.patients.list()).error?.status]);
  return steps;
}

(globalThis as { runClientScenario?: typeof scenario }).runClientScenario = scenario;
