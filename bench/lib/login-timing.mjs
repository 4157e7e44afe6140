// Login must take as long for an unknown e-mail as for a real one (api-contract.md §3): the service
// verifies a dummy hash when the e-mail is unknown. A timing, so it is measured here, not asserted
// in a pass/fail test. Sequential requests, alternating, each unknown e-mail used once (the login
// throttle counts failures per e-mail).
import { exchange } from "./http-client.mjs";
import { median } from "./stats.mjs";

export async function measureLoginTiming(baseUrl, admin, samples = 8) {
  const known = [];
  const unknown = [];
  for (let index = 0; index < samples; index += 1) {
    known.push(await timedLogin(baseUrl, admin, 200));
    unknown.push(await timedLogin(baseUrl, { email: `nobody-${index}-${process.pid}@example.com`, password: admin.password }, 401));
  }
  const knownMs = median(known);
  const unknownMs = median(unknown);
  return { samples, knownMs, unknownMs, unknownToKnown: unknownMs / knownMs };
}

async function timedLogin(baseUrl, credentials, expectedStatus) {
  const started = performance.now();
  const reply = await exchange(baseUrl, { method: "POST", path: "/api/auth/login", body: credentials });
  const ms = performance.now() - started;
  if (reply.status !== expectedStatus) throw new Error(`login of ${credentials.email} answered ${reply.status}, expected ${expectedStatus}: ${reply.text}`);
  return ms;
}
