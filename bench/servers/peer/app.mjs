// The peer's Express app: JSON in and out, the envelope on every error, no HTML error pages.
import express from "express";
import { loginHandler, requireAuth } from "./auth.mjs";
import { patientRoutes } from "./patients.mjs";
import { sendData, sendError, sendInvalid } from "./responses.mjs";
import { prototypeKeyErrors } from "../shared/validation.mjs";

function jsonBodiesOnly(req, res, next) {
  const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
  if (["POST", "PUT", "PATCH"].includes(req.method) && hasBody && !req.is("application/json"))
    return sendError(res, 415, "Unsupported media type.");
  next();
}

function noPrototypeKeys(req, res, next) {
  const errors = prototypeKeyErrors(req.body);
  if (errors) return sendInvalid(res, errors);
  next();
}

function errorHandler(error, req, res, _next) {
  if (error.type === "entity.parse.failed") return sendError(res, 400, "Malformed JSON body.");
  if (error.type === "entity.too.large") return sendError(res, 413, "Payload too large.");
  console.error(error);
  sendError(res, 500, "Server Error");
}

export function createApp({ prisma, Prisma, jwt }) {
  const app = express();
  app.disable("x-powered-by");
  // The service sends no ETag either: the same headers, and no SHA-1 of every body.
  app.disable("etag");
  app.use(jsonBodiesOnly, express.json(), noPrototypeKeys);

  const api = express.Router();
  api.get("/health", (_req, res) => sendData(res, { status: "ok" }));
  api.post("/auth/login", loginHandler(prisma, jwt));
  api.use(patientRoutes(prisma, Prisma, requireAuth(prisma, jwt)));
  app.use("/api", api);
  app.use((_req, res) => sendError(res, 404, "Resource not found."));
  app.use(errorHandler);
  return app;
}
