// The list queries of the list benchmark (bench/lists.mjs), written by hand as a careful user would
// on prepared better-sqlite3 statements: the service's answers, byte for byte (cursors aside: each
// server seals its own), for exactly the queries the benchmark sends —
//   GET /api/appointments?filter[scheduled_at][gte]=…&filter[scheduled_at][lt]=…&page=N
//   GET /api/appointments?filter[status][in]=a,b&page=N
//   GET /api/patients?filter[name][contains]=…&page=N and ?search=…&page=N
//   GET /api/patients?cursor=…
//   GET /api/doctors?with=specialties&page=N
// Any other parameter is a 422, as the page-number list of patients.mjs answers it.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { parsePageQuery } from "../shared/list-query.mjs";
import { linksBy, paginate } from "../shared/pagination.mjs";
import { storedToIso, toStoredDate } from "../shared/stored-dates.mjs";
import { invalidData, sendJson } from "./http.mjs";

const patientColumns = `"id", "hash", "name", "cpf", "phone", "created_at", "updated_at", "deleted_at"`;
const appointmentSelect = `SELECT a."id", a."hash", a."scheduled_at", a."status", a."notes", a."created_at", a."updated_at",
  p."hash" AS p_hash, p."name" AS p_name, p."cpf" AS p_cpf, p."phone" AS p_phone, p."created_at" AS p_created_at, p."updated_at" AS p_updated_at, p."deleted_at" AS p_deleted_at,
  d."hash" AS d_hash, d."name" AS d_name, d."crm" AS d_crm, d."specialty" AS d_specialty, d."created_at" AS d_created_at, d."updated_at" AS d_updated_at
  FROM "appointments" a LEFT JOIN "patients" p ON p."id" = a."patient_id" LEFT JOIN "doctors" d ON d."id" = a."doctor_id"`;
const statuses = new Set(["scheduled", "completed", "cancelled"]);

const patientOutput = (row, prefix = "") => ({
  hash: row[`${prefix}hash`],
  name: row[`${prefix}name`],
  cpf: row[`${prefix}cpf`],
  phone: row[`${prefix}phone`],
  created_at: storedToIso(row[`${prefix}created_at`]),
  updated_at: storedToIso(row[`${prefix}updated_at`]),
  deleted_at: storedToIso(row[`${prefix}deleted_at`]),
});

const appointmentOutput = (row) => ({
  hash: row.hash,
  scheduled_at: storedToIso(row.scheduled_at),
  status: row.status,
  notes: row.notes,
  patient: patientOutput(row, "p_"),
  doctor: {
    hash: row.d_hash,
    name: row.d_name,
    crm: row.d_crm,
    specialty: row.d_specialty,
    created_at: storedToIso(row.d_created_at),
    updated_at: storedToIso(row.d_updated_at),
  },
  created_at: storedToIso(row.created_at),
  updated_at: storedToIso(row.updated_at),
});

const likeText = (text) => `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

function prepare(db) {
  db.function("fold", { deterministic: true }, (value) => (typeof value === "string" ? value.toLowerCase() : value));
  const page = (where, from = `"patients"`) => `${where} ORDER BY ${from}."created_at" ASC, ${from}."id" ASC LIMIT ? OFFSET ?`;
  const nameLike = `fold("name") LIKE ? ESCAPE '\\'`;
  const live = `"deleted_at" IS NULL`;
  return {
    range: db.prepare(page(`${appointmentSelect} WHERE a."scheduled_at" >= ? AND a."scheduled_at" < ?`, "a")),
    rangeCount: db.prepare(`SELECT COUNT(*) FROM "appointments" WHERE "scheduled_at" >= ? AND "scheduled_at" < ?`).pluck(),
    statusIn: db.prepare(page(`${appointmentSelect} WHERE a."status" IN (SELECT value FROM json_each(?))`, "a")),
    statusInCount: db.prepare(`SELECT COUNT(*) FROM "appointments" WHERE "status" IN (SELECT value FROM json_each(?))`).pluck(),
    // One statement per count of search words (1 to 8), prepared on first use.
    nameLike: new Map(),
    nameLikeStatements(words) {
      let found = this.nameLike.get(words);
      if (!found) {
        const where = `WHERE ${live}${` AND ${nameLike}`.repeat(words)}`;
        found = {
          page: db.prepare(page(`SELECT ${patientColumns} FROM "patients" ${where}`)),
          count: db.prepare(`SELECT COUNT(*) FROM "patients" ${where}`).pluck(),
        };
        this.nameLike.set(words, found);
      }
      return found;
    },
    cursorFirst: db.prepare(`SELECT ${patientColumns} FROM "patients" WHERE ${live} ORDER BY "created_at" ASC, "id" ASC LIMIT ?`),
    cursorAfter: db.prepare(`SELECT ${patientColumns} FROM "patients" WHERE ${live} AND ("created_at", "id") > (?, ?) ORDER BY "created_at" ASC, "id" ASC LIMIT ?`),
    cursorBefore: db.prepare(`SELECT ${patientColumns} FROM "patients" WHERE ${live} AND ("created_at", "id") < (?, ?) ORDER BY "created_at" DESC, "id" DESC LIMIT ?`),
    doctorPage: db.prepare(`SELECT "id", "hash", "name", "crm", "specialty", "created_at", "updated_at" FROM "doctors" ORDER BY "created_at" ASC, "id" ASC LIMIT ? OFFSET ?`),
    doctorCount: db.prepare(`SELECT COUNT(*) FROM "doctors"`).pluck(),
    specialtiesOf: db.prepare(
      `SELECT l."doctor_id", l."since", s."hash", s."name", s."created_at", s."updated_at" FROM "doctors_specialties" l JOIN "specialties" s ON s."id" = l."specialty_id"
       WHERE l."doctor_id" IN (SELECT value FROM json_each(?)) ORDER BY s."created_at" ASC, s."id" ASC`,
    ),
  };
}

/** AES-256-GCM cursors under a key derived from the JWT secret, bound to the query: what the service does. */
function cursorCodec(secret) {
  const key = Buffer.from(hkdfSync("sha256", Buffer.from(secret), Buffer.alloc(0), "bench list cursor", 32));
  return {
    seal(values, binding) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(binding));
      const sealed = Buffer.concat([cipher.update(JSON.stringify(values), "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
    },
    open(text, binding) {
      if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length > 512) return undefined;
      const bytes = Buffer.from(text, "base64url");
      if (bytes.length <= 28) return undefined;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
        decipher.setAAD(Buffer.from(binding));
        decipher.setAuthTag(bytes.subarray(12, 28));
        const values = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8"));
        return Array.isArray(values) && values.length === 3 && (values[0] === 0 || values[0] === 1) ? values : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export function createLists(database, jwtConfig) {
  const statements = prepare(database.db);
  const cursors = cursorCodec(jwtConfig.secret);
  const base = (req, path) => `http://${req.headers.host}${path}`;

  /** The page parameters, with `extra` taken out of the query and checked by `check` (an error message or undefined). */
  function pageQuery(res, query, extra) {
    const rest = { ...query };
    const errors = {};
    for (const [key, check] of Object.entries(extra)) {
      const value = rest[key];
      delete rest[key];
      const message = typeof value === "string" ? check(value) : "The parameter must be given once.";
      if (message !== undefined)
        errors[
          key
            .replace(/\]\[.*$/, "")
            .replace("[", ".")
            .replace("]", "")
        ] = [message];
    }
    const parsed = parsePageQuery(rest);
    if (parsed.errors || Object.keys(errors).length > 0) {
      invalidData(res, { ...errors, ...parsed.errors });
      return undefined;
    }
    return parsed;
  }

  function sendPage(req, res, path, query, { page, perPage }, rows, total) {
    const { links, meta } = paginate(base(req, path), query, page, perPage, total, rows.length);
    sendJson(res, 200, {
      type: "success",
      status: 200,
      data: rows,
      links,
      meta,
    });
  }

  const instant = (value) => {
    const time = Date.parse(value);
    return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(time) ? toStoredDate(new Date(time)) : undefined;
  };

  function appointments(req, res, query) {
    if ("filter[status][in]" in query) {
      const parsed = pageQuery(res, query, {
        "filter[status][in]": (value) => (value.split(",").every((status) => statuses.has(status)) ? undefined : "The selected filter.status is invalid."),
      });
      if (!parsed) return;
      const values = JSON.stringify(query["filter[status][in]"].split(","));
      const rows = statements.statusIn.all(values, parsed.perPage, (parsed.page - 1) * parsed.perPage);
      return sendPage(req, res, "/api/appointments", query, parsed, rows.map(appointmentOutput), statements.statusInCount.get(values));
    }
    const range = (value) => (instant(value) === undefined ? "The filter.scheduled_at must be a valid date." : undefined);
    const parsed = pageQuery(res, query, {
      "filter[scheduled_at][gte]": range,
      "filter[scheduled_at][lt]": range,
    });
    if (!parsed) return;
    const bounds = [instant(query["filter[scheduled_at][gte]"]), instant(query["filter[scheduled_at][lt]"])];
    const rows = statements.range.all(...bounds, parsed.perPage, (parsed.page - 1) * parsed.perPage);
    sendPage(req, res, "/api/appointments", query, parsed, rows.map(appointmentOutput), statements.rangeCount.get(...bounds));
  }

  function patientsMatching(req, res, query) {
    const key = "search" in query ? "search" : "filter[name][contains]";
    const words = (text) => (key === "search" ? [...new Set(text.trim().split(/\s+/).filter(Boolean))] : [text]);
    const parsed = pageQuery(res, query, {
      [key]: (value) => (value.length === 0 || value.length > 512 || words(value).length > 8 ? "The value is invalid." : undefined),
    });
    if (!parsed) return;
    const patterns = words(query[key]).map(likeText);
    const { page, count } = statements.nameLikeStatements(patterns.length);
    const rows = page.all(...patterns, parsed.perPage, (parsed.page - 1) * parsed.perPage);
    sendPage(
      req,
      res,
      "/api/patients",
      query,
      parsed,
      rows.map((row) => patientOutput(row)),
      count.get(...patterns),
    );
  }

  function patientsByCursor(req, res, query) {
    const binding = JSON.stringify(["/api/patients", req.user.hash]);
    const { cursor, ...rest } = query;
    const position = cursor === "" ? null : typeof cursor === "string" ? cursors.open(cursor, binding) : undefined;
    const parsed = parsePageQuery(rest);
    if (position === undefined || parsed.errors || "page" in query)
      return invalidData(res, {
        ...parsed.errors,
        ...(position === undefined ? { cursor: ["The cursor is invalid."] } : {}),
      });
    const limit = parsed.perPage + 1;
    const forwards = position === null || position[0] === 1;
    let rows = position === null ? statements.cursorFirst.all(limit) : (forwards ? statements.cursorAfter : statements.cursorBefore).all(position[1], position[2], limit);
    const more = rows.length > parsed.perPage;
    if (more) rows = rows.slice(0, parsed.perPage);
    if (!forwards) rows.reverse();
    const seal = (direction, row) => (row === undefined ? null : cursors.seal([direction, row.created_at, row.id], binding));
    const next = (forwards ? more : true) ? seal(1, rows.at(-1)) : null;
    const prev = (forwards ? position !== null : more) ? seal(0, rows[0]) : null;
    const path = base(req, "/api/patients");
    const cursorLink = linksBy(path, query, "cursor");
    const link = (value) => (value === null ? null : cursorLink(value));
    sendJson(res, 200, {
      type: "success",
      status: 200,
      data: rows.map((row) => patientOutput(row)),
      links: { prev: link(prev), next: link(next) },
      meta: {
        path,
        per_page: parsed.perPage,
        next_cursor: next,
        prev_cursor: prev,
      },
    });
  }

  function doctors(req, res, query) {
    const parsed = pageQuery(res, query, {
      with: (value) => (value === "specialties" ? undefined : "The selected with is invalid."),
    });
    if (!parsed) return;
    const rows = statements.doctorPage.all(parsed.perPage, (parsed.page - 1) * parsed.perPage);
    const output = new Map(
      rows.map((row) => [
        row.id,
        {
          hash: row.hash,
          name: row.name,
          crm: row.crm,
          specialty: row.specialty,
          created_at: storedToIso(row.created_at),
          updated_at: storedToIso(row.updated_at),
          specialties: [],
        },
      ]),
    );
    for (const link of statements.specialtiesOf.all(JSON.stringify(rows.map((row) => row.id))))
      output.get(link.doctor_id).specialties.push({
        hash: link.hash,
        name: link.name,
        created_at: storedToIso(link.created_at),
        updated_at: storedToIso(link.updated_at),
        pivot: {
          since: link.since === null ? null : link.since.slice(0, 10),
        },
      });
    sendPage(req, res, "/api/doctors", query, parsed, [...output.values()], statements.doctorCount.get());
  }

  return {
    appointments,
    doctors,
    /** The patients' list when it is one of the benchmark's list queries, else false (the page-number list). */
    patients(req, res, query) {
      if ("cursor" in query) return (patientsByCursor(req, res, query), true);
      if ("search" in query || "filter[name][contains]" in query) return (patientsMatching(req, res, query), true);
      return false;
    },
  };
}
