// The patient endpoints of the reference server: the service's behaviour for show, list, create
// and update (src/resources/patient/*.ts) on prepared statements.
import { paginate } from "../shared/pagination.mjs";
import { hashMatcher, newHash } from "../shared/hash-id.mjs";
import { parsePageQuery } from "../shared/list-query.mjs";
import { cpfTaken, patientCreateRules, patientUpdateRules } from "../shared/rules.mjs";
import { storedToIso, toStoredDate } from "../shared/stored-dates.mjs";
import { validateBody } from "../shared/validation.mjs";
import { patientEvent } from "./events.mjs";
import { invalidData, sendData, sendError, sendJson } from "./http.mjs";

const ownHash = hashMatcher("PAT");
const hashAttempts = 5;

function serializePatient(row) {
  return {
    hash: row.hash,
    name: row.name,
    cpf: row.cpf,
    phone: row.phone,
    created_at: storedToIso(row.created_at),
    updated_at: storedToIso(row.updated_at),
    deleted_at: storedToIso(row.deleted_at),
  };
}

/**
 * `events`: each create and update also appends its event in its own transaction, as the service's
 * outbox does (the "express-ceiling-events" server of bench/write-ceilings.mjs).
 */
export function createPatients(database, { events = false } = {}) {
  const notFound = (res) => sendError(res, 404, "Resource not found.");
  const findLive = async (hash) => (ownHash.test(hash) ? database.livePatient.get(hash) : undefined);

  /** Like Laravel, a payload that fails validation also reports a cpf that is already taken. */
  async function withTakenCpf(errors, body, exceptId) {
    if (!errors.cpf && typeof body === "object" && body !== null && typeof body.cpf === "string" && (await database.cpfTaken.get(body.cpf, exceptId ?? null)) !== undefined)
      errors.cpf = [cpfTaken];
    return errors;
  }

  async function show(req, res, hash) {
    const row = await findLive(hash);
    if (!row) return notFound(res);
    sendData(res, serializePatient(row));
  }

  async function list(req, res, query) {
    const parsed = parsePageQuery(query);
    if (parsed.errors) return invalidData(res, parsed.errors);
    const { page, perPage } = parsed;
    const rows = await database.livePage.all(perPage, (page - 1) * perPage);
    const total = await database.liveCount.get();
    const { links, meta } = paginate(`http://${req.headers.host}/api/patients`, query, page, perPage, total, rows.length);
    sendJson(res, 200, { type: "success", status: 200, data: rows.map(serializePatient), links, meta });
  }

  async function create(req, res, body) {
    const errors = validateBody(body, patientCreateRules);
    if (errors) return invalidData(res, await withTakenCpf(errors, body));
    const now = toStoredDate(new Date());
    const values = { name: body.name, cpf: body.cpf, phone: body.phone ?? null, created_at: now, updated_at: now };
    for (let attempt = 1; ; attempt += 1) {
      try {
        const row = { ...values, hash: newHash("PAT") };
        const written = events
          ? await database.withEvent((run) => run(database.insertPatient, row), (after) => patientEvent("created", null, after, req.user))
          : await database.insertPatient.get(row);
        return sendData(res, serializePatient(written), 201);
      } catch (error) {
        const column = database.uniqueColumn(error);
        if (column === "cpf") return invalidData(res, { cpf: [cpfTaken] });
        if (column !== "hash" || attempt >= hashAttempts) throw error;
      }
    }
  }

  async function update(req, res, hash, body) {
    const row = await findLive(hash);
    if (!row) return notFound(res);
    const errors = validateBody(body, patientUpdateRules);
    if (errors) return invalidData(res, await withTakenCpf(errors, body, row.id));
    const columns = database.updatableColumns.filter((column) => body[column] !== undefined);
    const values = { id: row.id, updated_at: toStoredDate(new Date()) };
    for (const column of columns) values[column] = body[column];
    try {
      const statement = database.updatePatient(columns);
      const written = events
        ? await database.withEvent((run) => run(statement, values), (after) => patientEvent("updated", row, after, req.user))
        : await statement.get(values);
      sendData(res, serializePatient(written));
    } catch (error) {
      if (database.uniqueColumn(error) !== "cpf") throw error;
      invalidData(res, { cpf: [cpfTaken] });
    }
  }

  return { show, list, create, update };
}
