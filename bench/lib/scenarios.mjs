// The benchmarked endpoints: each yields the next request, rotating over seeded data so that no
// server answers the same request from a warm cache only. Writes get values no other request,
// round or server has used.
import { loginAccount } from "./seed.mjs";

// Created cpfs: 2xxxxxxxxxx, one counter for the whole run (seeded ones are 1xxxxxxxxxx).
let nextCreatedCpf = 20_000_000_000;
export function uniqueCpf() {
  nextCreatedCpf += 1;
  return String(nextCreatedCpf);
}

// Headers are built anew for every request: autocannon writes Content-Length into the headers
// object it is given, and a shared object would carry one body's length into other requests.
const jsonHeaders = (extra = {}) => ({ ...extra, "content-type": "application/json" });

export const endpointLabels = {
  show: "GET /api/patients/:hash",
  list: "GET /api/patients?page=N",
  create: "POST /api/patients",
  update: "PUT /api/patients/:hash",
  login: "POST /api/auth/login",
};
export const endpointIds = Object.keys(endpointLabels);

/** The login row's connections: the service's password gate holds 2 hashing and 16 waiting. */
export const loginConnections = 16;

/** seeded: from seed.mjs; token: a valid bearer token for this server. */
export function endpoint(id, { seeded, token }) {
  const authorization = () => ({ authorization: `Bearer ${token}` });
  const hashes = seeded.liveHashes;
  const pages = Math.max(1, Math.ceil(seeded.liveCount / 15));
  let turn = 0;
  const next = () => turn++;
  switch (id) {
    case "show":
      return { id, label: endpointLabels.show, next: () => ({ method: "GET", path: `/api/patients/${hashes[next() % hashes.length]}`, headers: authorization() }) };
    case "list":
      return { id, label: endpointLabels.list, next: () => ({ method: "GET", path: `/api/patients?page=${(next() % pages) + 1}`, headers: authorization() }) };
    case "create":
      return {
        id,
        label: endpointLabels.create,
        next: () => {
          const n = next();
          return { method: "POST", path: "/api/patients", headers: jsonHeaders(authorization()), body: JSON.stringify({ name: `Created Patient ${n}`, cpf: uniqueCpf(), phone: n % 2 ? null : `+55 21 9${String(n % 10000).padStart(4, "0")}-0000` }) };
        },
      };
    case "update":
      return {
        id,
        label: endpointLabels.update,
        next: () => {
          const n = next();
          return { method: "PUT", path: `/api/patients/${hashes[n % hashes.length]}`, headers: jsonHeaders(authorization()), body: JSON.stringify({ name: `Updated Patient ${n}`, phone: `+55 31 9${String(n % 10000).padStart(4, "0")}-1111` }) };
        },
      };
    case "login":
      // Each connection signs in with an account of its own (seed.mjs loginAccountCount), so no
      // account has two logins under way and the throttle (5 a minute per e-mail and address,
      // counted before the password is checked, cleared by a success) never answers; and at most
      // as many connections as the service's password gate admits (2 hashing, 16 waiting: beyond,
      // 503 at once), so that the row measures logins, not the gate's refusals.
      return {
        id,
        label: endpointLabels.login,
        maxConnections: loginConnections,
        next: (context = {}) => {
          context.account ??= next();
          return { method: "POST", path: "/api/auth/login", headers: jsonHeaders(), body: JSON.stringify(loginAccount(context.account)) };
        },
      };
    default:
      throw new Error(`unknown endpoint ${id}`);
  }
}
