// Request dispatch of the reference server: the body is read first (as the service's app-level
// JSON middleware does, so a malformed body is a 400 on any path), then the route, then the token.
import { parse as parseQuery } from "node:querystring";
import { readJsonBody, sendData, sendError } from "./http.mjs";

const methodsWithBody = new Set(["POST", "PUT", "PATCH"]);
const patientPath = /^\/api\/patients\/([^/]+)\/?$/;

function methodNotAllowed(res, allowed) {
  sendError(res, 405, "Method not allowed.", undefined, { Allow: allowed });
}

export function createRouter({ auth, patients, bodyLimitBytes }) {
  return async function route(req, res) {
    const queryStart = req.url.indexOf("?");
    const path = queryStart === -1 ? req.url : req.url.slice(0, queryStart);
    const search = queryStart === -1 ? "" : req.url.slice(queryStart + 1);
    const method = req.method === "HEAD" ? "GET" : req.method;
    let body;
    if (methodsWithBody.has(method)) {
      body = await readJsonBody(req, res, bodyLimitBytes);
      if (body === undefined) return;
    }

    if (path === "/api/auth/login" || path === "/api/auth/login/") {
      if (method !== "POST") return methodNotAllowed(res, "POST");
      return auth.login(req, res, body);
    }
    if (path === "/api/health" || path === "/api/health/") {
      if (method !== "GET") return methodNotAllowed(res, "GET, HEAD");
      return sendData(res, { status: "ok" });
    }

    const onCollection = path === "/api/patients" || path === "/api/patients/";
    const hash = onCollection ? undefined : patientPath.exec(path)?.[1];
    if (!onCollection && hash === undefined) return sendError(res, 404, "Resource not found.");
    const allowed = onCollection ? ["GET", "POST"] : ["GET", "PUT", "PATCH"];
    if (!allowed.includes(method)) return methodNotAllowed(res, onCollection ? "GET, HEAD, POST" : "GET, HEAD, PUT, PATCH");
    if ((await auth.authenticate(req)) === undefined) return auth.unauthenticated(res);

    if (onCollection) return method === "GET" ? patients.list(req, res, parseQuery(search)) : patients.create(req, res, body);
    return method === "GET" ? patients.show(req, res, hash) : patients.update(req, res, hash, body);
  };
}
