// The patient routes as one would write them by hand with Express 5 and Prisma.
import { Router } from "express";
import { hashMatcher, newHash } from "../shared/hash-id.mjs";
import { parsePageQuery } from "../shared/list-query.mjs";
import { paginate } from "../shared/pagination.mjs";
import { cpfTaken, patientCreateRules, patientUpdateRules } from "../shared/rules.mjs";
import { validateBody } from "../shared/validation.mjs";
import { uniqueViolationOn } from "./database.mjs";
import { sendData, sendError, sendInvalid } from "./responses.mjs";

const ownHash = hashMatcher("PAT");
const liveOrder = [{ created_at: "asc" }, { id: "asc" }];

function serializePatient(row) {
  return {
    hash: row.hash,
    name: row.name,
    cpf: row.cpf,
    phone: row.phone,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    deleted_at: row.deleted_at?.toISOString() ?? null,
  };
}

export function patientRoutes(prisma, Prisma, requireAuth) {
  const router = Router();
  const notFound = (res) => sendError(res, 404, "Resource not found.");
  const findLive = (hash) => (ownHash.test(hash) ? prisma.patient.findFirst({ where: { hash, deleted_at: null } }) : null);

  /** A payload that fails validation also reports a cpf that is already taken. */
  async function withTakenCpf(errors, body, exceptId) {
    if (errors.cpf || typeof body?.cpf !== "string") return errors;
    const taken = await prisma.patient.findFirst({
      where: { cpf: body.cpf, ...(exceptId === undefined ? {} : { NOT: { id: exceptId } }) },
      select: { id: true },
    });
    if (taken) errors.cpf = [cpfTaken];
    return errors;
  }

  const methodNotAllowed = (allowed) => (_req, res) => {
    res.set("Allow", allowed);
    sendError(res, 405, "Method not allowed.");
  };

  router.get("/patients", requireAuth, async (req, res) => {
    const parsed = parsePageQuery(req.query);
    if (parsed.errors) return sendInvalid(res, parsed.errors);
    const { page, perPage } = parsed;
    const where = { deleted_at: null };
    const [rows, total] = await Promise.all([
      prisma.patient.findMany({ where, orderBy: liveOrder, skip: (page - 1) * perPage, take: perPage }),
      prisma.patient.count({ where }),
    ]);
    const path = `${req.protocol}://${req.get("host")}/api/patients`;
    const { links, meta } = paginate(path, req.query, page, perPage, total, rows.length);
    res.json({ type: "success", status: 200, data: rows.map(serializePatient), links, meta });
  });

  router.post("/patients", requireAuth, async (req, res) => {
    const body = req.body ?? {};
    const errors = validateBody(body, patientCreateRules);
    if (errors) return sendInvalid(res, await withTakenCpf(errors, body));
    for (let attempt = 1; ; attempt += 1) {
      try {
        const row = await prisma.patient.create({ data: { hash: newHash("PAT"), name: body.name, cpf: body.cpf, phone: body.phone ?? null } });
        return sendData(res, serializePatient(row), 201);
      } catch (error) {
        const column = uniqueViolationOn(error, Prisma);
        if (column === "cpf") return sendInvalid(res, { cpf: [cpfTaken] });
        // A hash collision (one in 10^12 per pair) is retried with a new hash, a few times.
        if (column !== "hash" || attempt >= 5) throw error;
      }
    }
  });

  router.get("/patients/:hash", requireAuth, async (req, res) => {
    const row = await findLive(req.params.hash);
    if (!row) return notFound(res);
    sendData(res, serializePatient(row));
  });

  const update = async (req, res) => {
    const row = await findLive(req.params.hash);
    if (!row) return notFound(res);
    const body = req.body ?? {};
    const errors = validateBody(body, patientUpdateRules);
    if (errors) return sendInvalid(res, await withTakenCpf(errors, body, row.id));
    const data = {};
    for (const field of ["name", "cpf", "phone"]) if (body[field] !== undefined) data[field] = body[field];
    try {
      sendData(res, serializePatient(await prisma.patient.update({ where: { id: row.id }, data })));
    } catch (error) {
      if (uniqueViolationOn(error, Prisma) !== "cpf") throw error;
      sendInvalid(res, { cpf: [cpfTaken] });
    }
  };
  router.put("/patients/:hash", requireAuth, update);
  router.patch("/patients/:hash", requireAuth, update);
  router.all("/patients", methodNotAllowed("GET, HEAD, POST"));
  router.all("/patients/:hash", methodNotAllowed("GET, HEAD, PUT, PATCH"));
  return router;
}
