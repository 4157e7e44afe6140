import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { multipart, pdfBytes, htmlBytes, png, startS3, svgBytes, truncatedUpload } from "../support/files.js";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, jwtSecret, prepareProject, repo, startService, type Project, type Reply, type Request, type RunningService } from "../support/service.js";

/**
 * Issue 50: files under the rules of the record that holds them (test/fixtures/files), on SQLite and
 * PostgreSQL, with the `local` driver and with `s3` against an S3-compatible server that checks
 * signatures. Uploads both ways (multipart, and two-phase through the typed client); types read
 * from the bytes, lying names refused; a file's URL only for a reader who may show the record and
 * see the field; history with metadata only; replaced and hard-deleted files removed after commit,
 * orphans swept. The bounds (memory, concurrent uploads, slow senders, kill -9) are in
 * files-bounds.test.ts.
 */
const password = "a long password";
const blob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]);
const targets = databaseTargets.flatMap((target) => [
  { ...target, driver: "local" as const },
  { ...target, driver: "s3" as const },
]);

describe.each(targets)("files on $label with the $driver driver", ({ database, driver }) => {
  let project: Project;
  let postgres: PostgresServer | undefined;
  let s3: Awaited<ReturnType<typeof startS3>> | undefined;
  let service: RunningService;
  let api: Request;
  const tokens: Record<string, string> = {};

  const send = async (token: string, method: string, path: string, body: ReturnType<typeof multipart>): Promise<Reply> => {
    const response = await fetch(`${service.baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": body.type }, body: new Uint8Array(body.body) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text, request: `${method} ${path}` };
  };
  const sql = (statement: string) => queryDatabase(project.databaseUrl, project.dir, statement);
  const uploads = async () => (await sql(`SELECT "key", "state", "name", "type", "size" FROM "hashapi_uploads" ORDER BY "id"`)) as { key: string; state: string; name: string; type: string; size: number }[];
  /** Whether the storage still holds an object. */
  const stored = async (key: string): Promise<boolean> => {
    if (driver === "local") return existsSync(join(project.dir, "data/files", key.slice(0, 2), key));
    const { presignedUrl } = await import("../../runtime/common/src/files/sigv4.js");
    const url = presignedUrl({ accessKeyId: "S3RVER", secretAccessKey: "S3RVER" }, { method: "GET", endpoint: new URL(s3!.endpoint), bucket: "hashapi-files", key, region: "us-east-1", expiresSeconds: 60 });
    return (await fetch(url)).status === 200;
  };
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await new Promise((done) => setTimeout(done, 100));
    }
  };
  const download = (url: string) => fetch(url.startsWith("http") ? url : `${service.baseUrl}${url}`);
  const keyOfUrl = (url: string) => (driver === "local" ? /\/api\/files\/([a-z2-7]{26})\?/.exec(url)![1]! : /\/hashapi-files\/([a-z2-7]{26})\?/.exec(url)![1]!);

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase(`files_${driver}`);
      databaseUrl = postgres.url(`files_${driver}`);
    }
    if (driver === "s3") s3 = await startS3();
    project = await prepareProject({ name: `e2e-files-${database}-${driver}`, database, databaseUrl, specs: join(repo, "test/fixtures/files") });
    service = await startService({ cwd: project.dir, env: { ...project.env, ...(s3?.env ?? { STORAGE_DRIVER: "local" }), WEBHOOK_RETRY_BASE_MS: "50" } });
    api = client(service.baseUrl);
    const login = async (email: string, secret: string) => (await api("POST", "/api/auth/login", { body: { email, password: secret } })).body.data.access_token as string;
    tokens.admin = await login(admin.email, admin.password);
    for (const [name, role] of [["rita", "recruiter"], ["rob", "recruiter"], ["vic", "viewer"], ["ula", "recruiter"]] as const) {
      const created = await api("POST", "/api/users", { token: tokens.admin, body: { name, email: `${name}@example.com`, password, role } });
      expect(created.status, created.text).toBe(201);
      tokens[name] = await login(`${name}@example.com`, password);
    }
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await project?.cleanup();
    await s3?.stop();
    await postgres?.destroy();
  });

  it("streams a multipart create to storage, typed by its bytes, and shows each role what it may see", async () => {
    const body = multipart([
      { name: "payload", value: JSON.stringify({ name: "Ana" }) },
      { name: "resume", file: { filename: "../../etc/Ana's CV.pdf", bytes: pdfBytes, type: "text/html" } },
      { name: "scan", file: { filename: "scan.pdf", bytes: pdfBytes } },
    ]);
    const created = await send(tokens.admin!, "POST", "/api/candidates", body);
    expect(created.status, created.text).toBe(201);
    const { resume, scan } = created.body.data;
    // The type is what the bytes say, never what the client claimed; the name is its last segment.
    expect(resume).toMatchObject({ name: "Ana's CV.pdf", size: pdfBytes.length, type: "application/pdf" });
    expect(Object.keys(resume).sort()).toEqual(["name", "size", "type", "url"]);
    expect(scan.type).toBe("application/pdf");
    const file = await download(resume.url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(pdfBytes);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename=/);
    if (driver === "local") expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    // A recruiter may show the candidate but not see the scan (visibleTo: admin): no key, no URL.
    const hash = created.body.data.hash as string;
    const asRita = await api("GET", `/api/candidates/${hash}`, { token: tokens.rita });
    expect(asRita.body.data.resume.url).toEqual(expect.any(String));
    expect(asRita.body.data).not.toHaveProperty("scan");
    expect(asRita.text).not.toContain(keyOfUrl(scan.url));
    const asVic = await api("GET", `/api/candidates?per_page=100`, { token: tokens.vic });
    expect(asVic.body.data.find((row: { hash: string }) => row.hash === hash)).not.toHaveProperty("scan");
  });

  it("refuses a file whose bytes disagree with its rules or its name, and keeps nothing of it", async () => {
    const before = (await uploads()).length;
    const cases: [string, string, Buffer, string][] = [
      ["resume", "cv.pdf", htmlBytes, "The resume field must be a file of type: pdf, docx, txt."],
      ["resume", "cv.pdf", png(10), "The resume field must be a file of type: pdf, docx, txt."],
      ["resume", "cv.txt", htmlBytes, "The resume field must be a file of type: pdf, docx, txt."],
      ["photo", "me.png", pdfBytes, "The photo field must be an image."],
      ["photo", "me.svg", svgBytes, "The photo field must be an image."],
      ["photo", "me.pdf", png(10), "The photo field must be an image."],
      ["photo", "wide.png", png(2001), "The photo field has invalid image dimensions."],
      ["photo", "huge.png", Buffer.concat([png(10), Buffer.alloc(300 * 1024)]), "The photo field must not be greater than 256 kilobytes."],
      ["scan", "scan.pdf", htmlBytes, "The scan field must be a file of type: application/pdf."],
    ];
    for (const [field, filename, bytes, message] of cases) {
      const reply = await send(tokens.admin!, "POST", "/api/candidates", multipart([{ name: "name", value: "Lies" }, { name: field, file: { filename, bytes, type: "application/pdf" } }]));
      expect(reply.status, `${field} ${filename}: ${reply.text}`).toBe(422);
      expect(reply.body.errors[field]).toEqual([message]);
    }
    const after = await uploads();
    expect(after.length).toBe(before);
    const names = (await sql(`SELECT "name" FROM "candidates" WHERE "name" = 'Lies'`)).length;
    expect(names).toBe(0);
  });

  it("uploads in two phases through the typed client, each upload its uploader's and taken once", async () => {
    const { createClient } = (await import(pathToFileURL(join(project.dir, "client/src/index.ts")).href)) as { createClient: (options: { baseUrl: string; token?: string }) => any };
    const rita = createClient({ baseUrl: service.baseUrl, token: tokens.rita });
    const rob = createClient({ baseUrl: service.baseUrl, token: tokens.rob });
    const photo = blob(png(40, 30));
    const uploaded = await rita.candidates.upload("photo", photo, { name: "portrait.png" });
    expect(uploaded.error, JSON.stringify(uploaded.error)).toBeUndefined();
    expect(uploaded.data.upload).toMatch(/^upl_[a-z2-7]{26}$/);
    // Another caller cannot take it, and a write that names it fails as a whole.
    const stolen = await rob.candidates.create({ name: "Thief", photo: uploaded.data.upload });
    expect(stolen.error?.status).toBe(422);
    expect(stolen.error.errors.photo).toEqual(["The photo failed to upload."]);
    const created = await rita.candidates.create({ name: "Bea", photo: uploaded.data.upload });
    expect(created.error, JSON.stringify(created.error)).toBeUndefined();
    expect(created.data.photo).toMatchObject({ name: "portrait.png", type: "image/png" });
    const image = await download(created.data.photo.url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-disposition")).toMatch(/^inline; /);
    const again = await rita.candidates.create({ name: "Twice", photo: uploaded.data.upload });
    expect(again.error.errors.photo).toEqual(["The photo failed to upload."]);
    // A declared size past the field's max is refused before any byte is sent.
    const tooBig = await rita.candidates.upload("photo", blob(Buffer.alloc(300 * 1024)), { name: "big.png" });
    expect(tooBig.error?.status).toBe(422);
    // A viewer may neither create nor update candidates: no upload for it.
    const vic = createClient({ baseUrl: service.baseUrl, token: tokens.vic });
    expect((await vic.candidates.upload("resume", blob(pdfBytes), { name: "cv.pdf" })).error?.status).toBe(403);
    // A recruiter may not send the scan (writableBy: admin).
    expect((await rita.candidates.upload("scan", blob(pdfBytes), { name: "scan.pdf" })).error?.status).toBe(403);
  });

  it("attaches an upload to one record only when many writes name it at once (decided in the write)", async () => {
    const { createClient } = (await import(pathToFileURL(join(project.dir, "client/src/index.ts")).href)) as { createClient: (options: { baseUrl: string; token?: string }) => any };
    const rita = createClient({ baseUrl: service.baseUrl, token: tokens.rita });
    for (let round = 0; round < 5; round += 1) {
      const uploaded = await rita.candidates.upload("resume", blob(pdfBytes), { name: `race-${round}.pdf` });
      expect(uploaded.error).toBeUndefined();
      const writes = await Promise.all(Array.from({ length: 8 }, (_, n) => rita.candidates.create({ name: `Race ${round}-${n}`, resume: uploaded.data.upload })));
      const won = writes.filter((write: { error?: unknown }) => write.error === undefined);
      expect(won.length, JSON.stringify(writes.map((write: { error?: { status: number } }) => write.error?.status ?? 201))).toBe(1);
      for (const lost of writes.filter((write: { error?: unknown }) => write.error !== undefined)) expect(lost.error.status).toBe(422);
      const rows = await sql(`SELECT "record_id", "state" FROM "hashapi_uploads" WHERE "token" = '${uploaded.data.upload}'`);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.state).toBe("attached");
      // Only the winner holds the file; no losing write left a record behind.
      const holders = await sql(`SELECT "name" FROM "candidates" WHERE "name" LIKE 'Race ${round}-%'`);
      expect(holders.map((row) => row.name)).toEqual([won[0].data.name]);
    }
  });

  it("gives a document's file to its owner and the bypass role only, and its URL is the 404 of a missing record once tampered with", async () => {
    const candidate = (await api("POST", "/api/candidates", { token: tokens.rita, body: { name: "Cy" } })).body.data.hash as string;
    const created = await send(tokens.rita!, "POST", "/api/documents", multipart([{ name: "payload", value: JSON.stringify({ title: "Offer", candidate }) }, { name: "file", file: { filename: "offer.txt", bytes: Buffer.from("an offer letter\n") } }]));
    expect(created.status, created.text).toBe(201);
    const { hash, file } = created.body.data;
    expect(file.type).toBe("text/plain");
    expect((await api("GET", `/api/documents/${hash}`, { token: tokens.rob })).status).toBe(404);
    const robsList = await api("GET", "/api/documents", { token: tokens.rob });
    expect(robsList.text).not.toContain(keyOfUrl(file.url));
    expect((await api("GET", `/api/documents/${hash}`, { token: tokens.admin })).body.data.file.url).toEqual(expect.any(String));
    const tampered = file.url.replace(/[0-9a-f](?=[^0-9a-f]*$)/, (digit: string) => (digit === "0" ? "1" : "0"));
    const refused = await download(tampered);
    expect([403, 404]).toContain(refused.status);
    if (driver === "local") {
      expect(refused.status).toBe(404);
      // The same key signed by the service's secret but expired: refused on its expiry alone.
      const key = keyOfUrl(file.url);
      const signing = createHmac("sha256", Buffer.from(jwtSecret)).update("hashapi files v1").digest();
      const sign = (expires: number) => createHmac("sha256", signing).update(`GET\n${key}\n${expires}`).digest("hex");
      const past = Math.floor(Date.now() / 1000) - 10;
      const future = Math.floor(Date.now() / 1000) + 100;
      expect((await download(`/api/files/${key}?expires=${past}&signature=${sign(past)}`)).status).toBe(404);
      expect((await download(`/api/files/${key}?expires=${future}&signature=${sign(future)}`)).status).toBe(200);
    }
  });

  it("removes a replaced file and a hard-deleted record's after commit, and keeps a soft-deleted one's", async () => {
    const created = await send(tokens.admin!, "POST", "/api/candidates", multipart([{ name: "name", value: "Dee" }, { name: "resume", file: { filename: "one.pdf", bytes: pdfBytes } }]));
    const hash = created.body.data.hash as string;
    const first = keyOfUrl(created.body.data.resume.url);
    const replaced = await send(tokens.admin!, "PATCH", `/api/candidates/${hash}`, multipart([{ name: "resume", file: { filename: "two.txt", bytes: Buffer.from("plain words\n") } }]));
    expect(replaced.status, replaced.text).toBe(200);
    const second = keyOfUrl(replaced.body.data.resume.url);
    await until("the replaced file removed", async () => !(await stored(first)));
    expect(await stored(second)).toBe(true);
    // Soft delete keeps the file; restore serves it again.
    expect((await api("DELETE", `/api/candidates/${hash}`, { token: tokens.admin })).status).toBe(200);
    await new Promise((done) => setTimeout(done, 1500));
    expect(await stored(second)).toBe(true);
    const restored = await api("POST", `/api/candidates/${hash}/restore`, { token: tokens.admin });
    expect((await download(restored.body.data.resume.url)).status).toBe(200);
    // Clearing the field lets its file go.
    const cleared = await api("PATCH", `/api/candidates/${hash}`, { token: tokens.admin, body: { resume: null } });
    expect(cleared.body.data.resume).toBeNull();
    await until("the cleared file removed", async () => !(await stored(second)));
    // A hard delete (documents) lets go of the record's files.
    const document = await send(tokens.admin!, "POST", "/api/documents", multipart([{ name: "payload", value: JSON.stringify({ title: "Memo", candidate: hash }) }, { name: "file", file: { filename: "memo.txt", bytes: Buffer.from("memo\n") } }]));
    const key = keyOfUrl(document.body.data.file.url);
    expect((await api("DELETE", `/api/documents/${document.body.data.hash}`, { token: tokens.admin })).status).toBe(200);
    await until("the deleted document's file removed", async () => !(await stored(key)));
    expect((await download(document.body.data.file.url)).status).not.toBe(200);
  });

  it("shows files in history as metadata only: never a key or a URL", async () => {
    const created = await send(tokens.admin!, "POST", "/api/candidates", multipart([{ name: "name", value: "Eve" }, { name: "resume", file: { filename: "eve.pdf", bytes: pdfBytes } }, { name: "scan", file: { filename: "eve-scan.pdf", bytes: pdfBytes } }]));
    const hash = created.body.data.hash as string;
    const keys = [keyOfUrl(created.body.data.resume.url), keyOfUrl(created.body.data.scan.url)];
    for (const who of ["admin", "rita", "vic"]) {
      const history = await api("GET", `/api/candidates/${hash}/history`, { token: tokens[who] });
      expect(history.status).toBe(200);
      for (const key of keys) expect(history.text).not.toContain(key);
      expect(history.text).not.toContain('"url"');
      expect(history.body.data[0].changes.resume[1]).toEqual({ name: "eve.pdf", size: pdfBytes.length, type: "application/pdf" });
      // The scan's change only for its readers.
      expect(Object.hasOwn(history.body.data[0].changes, "scan")).toBe(who === "admin");
    }
  });

  it("sweeps uploads no record took once their grace is over, bytes and row", async () => {
    const { createClient } = (await import(pathToFileURL(join(project.dir, "client/src/index.ts")).href)) as { createClient: (options: { baseUrl: string; token?: string }) => any };
    const rita = createClient({ baseUrl: service.baseUrl, token: tokens.rita });
    const left = await rita.candidates.upload("resume", blob(pdfBytes), { name: "left.pdf" });
    expect(left.error).toBeUndefined();
    const row = (await sql(`SELECT "key", "state" FROM "hashapi_uploads" WHERE "token" = '${left.data.upload}'`))[0] as { key: string; state: string };
    await until("the upload's bytes stored", () => stored(row.key));
    await sql(`UPDATE "hashapi_uploads" SET "created_at" = '2000-01-01T00:00:00.000+00:00' WHERE "token" = '${left.data.upload}'`);
    const attached = (await uploads()).filter((upload) => upload.state === "attached").length;
    await sql(`INSERT INTO "hashapi_jobs" ("hash", "name", "payload", "status", "attempts", "run_at", "created_at", "updated_at") VALUES ('JOB_SWEEP${driver === "s3" ? "S3" : "LO"}1', 'hashapi:file-sweep', 'null', 'pending', 0, '2000-01-01T00:00:00.000+00:00', '2000-01-01T00:00:00.000+00:00', '2000-01-01T00:00:00.000+00:00')`);
    await until("the orphan swept", async () => (await sql(`SELECT 1 FROM "hashapi_uploads" WHERE "token" = '${left.data.upload}'`)).length === 0);
    expect(await stored(row.key)).toBe(false);
    // Attached files are kept.
    expect((await uploads()).filter((upload) => upload.state === "attached").length).toBe(attached);
  });

  it("counts each caller's bytes (rateLimit.uploadMegabytes): past them, 429 with Retry-After", async () => {
    const candidate = (await api("POST", "/api/candidates", { token: tokens.ula, body: { name: "Ula's" } })).body.data.hash as string;
    const upload = (title: string) => send(tokens.ula!, "POST", "/api/documents", multipart([{ name: "payload", value: JSON.stringify({ title, candidate }) }, { name: "file", file: { filename: `${title}.txt`, bytes: Buffer.alloc(2048 * 1024, 0x61) } }]));
    expect((await upload("first")).status).toBe(201);
    const second = await upload("second");
    expect(second.status, second.text).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
    const third = await upload("third");
    expect(third.status).toBe(429);
    // Another caller has bytes of its own.
    expect((await send(tokens.rob!, "POST", "/api/documents", multipart([{ name: "payload", value: JSON.stringify({ title: "rob's", candidate }) }, { name: "file", file: { filename: "r.txt", bytes: Buffer.from("short\n") } }]))).status).toBe(201);
    // Nothing of the refused ones is kept.
    expect((await sql(`SELECT 1 FROM "documents" WHERE "title" IN ('second', 'third')`)).length).toBe(0);
  });

  it("refuses what no route of files takes: a multipart body elsewhere, a malformed one, an unknown part", async () => {
    const other = await send(tokens.admin!, "POST", "/api/auth/logout", multipart([{ name: "x", value: "y" }]));
    expect(other.status).toBe(415);
    const malformed = await fetch(`${service.baseUrl}/api/candidates`, { method: "POST", headers: { Authorization: `Bearer ${tokens.admin}`, "Content-Type": "multipart/form-data; boundary=nope" }, body: "--wrong\r\n\r\n" });
    expect([400, 422]).toContain(malformed.status);
    const unknown = await send(tokens.admin!, "POST", "/api/candidates", multipart([{ name: "name", value: "Fay" }, { name: "passport", file: { filename: "p.pdf", bytes: pdfBytes } }]));
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.passport).toEqual(["The passport field is prohibited."]);
    const twice = await send(tokens.admin!, "POST", "/api/candidates", multipart([{ name: "name", value: "Gus" }, { name: "resume", file: { filename: "a.pdf", bytes: pdfBytes } }, { name: "resume", file: { filename: "b.pdf", bytes: pdfBytes } }]));
    expect(twice.status).toBe(422);
    const proto = await send(tokens.admin!, "POST", "/api/candidates", multipart([{ name: "payload", value: '{"name":"Hal","__proto__":{"x":1}}' }]));
    expect(proto.status).toBe(422);
    const notJson = await send(tokens.admin!, "POST", "/api/candidates", multipart([{ name: "payload", value: "{nope" }]));
    expect(notJson.body.errors.payload).toEqual(["The payload field must be valid JSON."]);
    // A part whose headers go on for 100 kB, and a body cut short mid-file: refused, nothing kept.
    const hugeHeader = Buffer.from(`--x\r\nContent-Disposition: form-data; name="resume"; filename="a.pdf"\r\nX-Pad: ${"a".repeat(100_000)}\r\n\r\n%PDF-1.4\r\n--x--\r\n`);
    const huge = await fetch(`${service.baseUrl}/api/candidates`, { method: "POST", headers: { Authorization: `Bearer ${tokens.admin}`, "Content-Type": "multipart/form-data; boundary=x" }, body: new Uint8Array(hugeHeader) }).catch(() => undefined);
    expect(huge === undefined || [400, 413, 422].includes(huge.status)).toBe(true);
    await truncatedUpload(service.baseUrl, tokens.admin!);
    await until("no upload left receiving", async () => (await uploads()).every((upload) => upload.state === "attached" || upload.state === "ready"));
    if (driver === "local") {
      const dirs = await readdir(join(project.dir, "data/files")).catch(() => []);
      for (const dir of dirs) for (const name of await readdir(join(project.dir, "data/files", dir))) expect(name).not.toMatch(/\.part$/);
    }
  });
});
