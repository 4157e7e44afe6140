// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import type { AuthService } from "../auth/auth.service.js";
import { Forbidden, NotFound, TooManyRequests, ValidationFailed } from "../base/errors.js";
import type { CallerLimits } from "../auth/auth.service.js";
import { isRecord } from "../base/records.js";
import { fileMessage, servedInline, type FileRules } from "../files/file-rules.js";
import type { Files, UploadTarget } from "../files/files.js";
import { isStorageKey, isUploadToken } from "../files/keys.js";
import type { LocalStorage } from "../files/local-storage.js";
import { contentDisposition } from "../files/s3-storage.js";
import { extensionOf } from "../files/sniff.js";
import { UploadCut } from "../files/storage.js";
import { attachedByKey, moveUpload, uploadByToken } from "../files/uploads.js";
import { optionalAuth } from "../http/authenticate.js";
import { sendData } from "../http/envelope.js";
import type { Action, RouteTable } from "../http/route-table.js";
import { inTenant } from "../http/tenant-routes.js";
import type { ResourceDescriptor } from "./descriptor.js";

/*
 * The two-phase upload and the `local` driver's own URLs:
 *  - POST /api/uploads { collection, field, name, size? } asks for an upload: for a caller who may
 *    create or update that resource and send that field; answers where to PUT the bytes, until when;
 *  - PUT /api/uploads/{token}?expires&signature (local): the bytes, streamed, typed and checked;
 *    with `s3`, the client PUTs to the bucket's presigned URL and the write checks them;
 *  - GET /api/files/{key}?expires&signature (local): a download, as `nosniff` attachment (inline for
 *    declared images), the 404 of a missing record for a URL tampered with, expired or let go of.
 */

/** The resources with file fields, by collection. */
type FileResources = ReadonlyMap<string, ResourceDescriptor>;

export function addUploadRoutes(
  routes: RouteTable,
  base: string,
  auth: AuthService,
  files: Files,
  resources: readonly ResourceDescriptor[],
): void {
  const withFiles: FileResources = new Map(
    resources
      .filter((resource) => resource.files)
      .map((resource) => [resource.collection, resource]),
  );
  routes.add(`${base}/uploads`, {
    post: optionalAuth(auth, (req, res) =>
      askForUpload(req, res, files, withFiles, auth.requestLimits),
    ),
  });
  if (files.storage.driver !== "local") return;
  const storage = files.storage as LocalStorage;
  routes.add(`${base}/uploads/:token`, { put: (req, res) => receivePut(req, res, files) });
  routes.add(`${base}/files/:key`, { get: (req, res) => download(req, res, files, storage) });
}

/** The resource and field a two-phase upload is asked for, and the caller's right to send it. */
function uploadTarget(
  req: Request,
  withFiles: FileResources,
): { target: UploadTarget; tenanted: boolean } {
  const body = isRecord(req.body) ? req.body : {};
  const resource = typeof body.collection === "string" ? withFiles.get(body.collection) : undefined;
  if (resource === undefined)
    throw new ValidationFailed({ collection: ["The selected collection is invalid."] });
  const field =
    typeof body.field === "string" && Object.hasOwn(resource.files!, body.field)
      ? body.field
      : undefined;
  if (field === undefined)
    throw new ValidationFailed({ field: ["The selected field is invalid."] });
  if (typeof body.name !== "string" || body.name.length === 0 || body.name.length > 1024)
    throw new ValidationFailed({ name: ["The name field must be a string."] });
  const tenanted = resource.tenant !== undefined && "column" in resource.tenant;
  return {
    target: {
      prefix: resource.prefix,
      field,
      rules: resource.files![field]!,
      uploaderId: null,
      tenantId: null,
    },
    tenanted,
  };
}

/** Whether the caller may write `field` of `resource` by a create or an update. */
function mayWrite(req: Request, resource: ResourceDescriptor, field: string): boolean {
  const role = req.user?.role;
  const writers = resource.writableBy?.[field];
  if (writers !== undefined && (role === undefined || !writers.includes(role))) return false;
  return (["store", "update"] as const).some((action) => {
    if (resource.publicActions?.includes(action)) return true;
    const roles = resource.roles?.[action];
    return role !== undefined && (roles === undefined || roles.includes(role));
  });
}

async function askForUpload(
  req: Request,
  res: Response,
  files: Files,
  withFiles: FileResources,
  limits: CallerLimits | undefined,
): Promise<void> {
  const { target, tenanted } = uploadTarget(req, withFiles);
  const ask: Action = async (request, response) => {
    const resource = withFiles.get(String(request.body.collection))!;
    if (!mayWrite(request, resource, target.field)) throw new Forbidden();
    const size = declaredSize(target.field, target.rules, request.body.name, request.body.size);
    await countDeclared(request, limits, size);
    const owned = {
      ...target,
      uploaderId: request.user?.id ?? null,
      tenantId: request.user?.tenant?.id ?? null,
    };
    const asked = await files.ask(owned, String(request.body.name), size);
    sendData(
      response,
      {
        upload: asked.token,
        url: asked.url,
        method: "PUT",
        expires_at: asked.expiresAt.toISOString(),
      },
      201,
    );
  };
  await (tenanted ? inTenant(ask) : ask)(req, res);
}

/**
 * With `rateLimit.uploadMegabytes`, a two-phase upload's declared size is counted when it is asked
 * for (its bytes then go where the service cannot count them, a bucket) and bounds what is taken.
 */
async function countDeclared(
  req: Request,
  limits: CallerLimits | undefined,
  size: number | undefined,
) {
  const allowance = await limits?.uploadAllowance(req);
  if (allowance === undefined) return;
  if (size === undefined) throw new ValidationFailed({ size: ["The size field is required."] });
  if (size > allowance) throw new TooManyRequests(60);
  await limits?.uploaded(req, size);
}

/**
 * A two-phase upload's declared size (undefined when not given), refused with what its declared
 * name and size already break (its bytes decide the rest).
 */
function declaredSize(
  field: string,
  rules: FileRules,
  name: unknown,
  size: unknown,
): number | undefined {
  if (size !== undefined && (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0))
    throw new ValidationFailed({ size: ["The size field must be an integer."] });
  if (typeof size === "number" && size > rules.maxBytes)
    throw new ValidationFailed({ [field]: [fileMessage("max", rules)] });
  const extension = extensionOf(String(name));
  if (
    rules.mimes &&
    rules.mimes.length > 0 &&
    (extension === undefined || !rules.mimes.includes(extension))
  )
    throw new ValidationFailed({ [field]: [fileMessage("mimes", rules)] });
  return typeof size === "number" ? size : undefined;
}

/** PUT of a two-phase upload's bytes to the service (`local`): streamed, typed, checked. */
async function receivePut(req: Request, res: Response, files: Files): Promise<void> {
  const token = String(req.params.token);
  if (
    !isUploadToken(token) ||
    !files.signer.grants("PUT", token, req.query.expires, req.query.signature)
  )
    throw new NotFound();
  const upload = await uploadByToken(files.sql, token);
  if (upload === undefined || !(await moveUpload(files.sql, upload.id, "pending", "receiving")))
    throw new NotFound();
  const rules = files.rulesOf(upload.prefix, upload.field);
  if (rules === undefined) throw new NotFound();
  await files.bounded(async () => {
    // An upload asked for with its size takes no more than that (what its asker was counted for).
    const cap = upload.size > 0 ? Math.min(upload.size, rules.maxBytes) : rules.maxBytes;
    const stored = await files.store(upload, rules, req, cap).catch((error: unknown) => {
      if (error instanceof UploadCut && error.reason === "too-large")
        throw new ValidationFailed({ [upload.field]: [fileMessage("uploaded", rules)] });
      throw error;
    });
    if ("problems" in stored) throw new ValidationFailed({ [upload.field]: stored.problems });
    sendData(res, { upload: token, name: upload.name, size: stored.size, type: stored.type });
  });
}

/** A download of a stored file by its signed URL (`local`). */
async function download(
  req: Request,
  res: Response,
  files: Files,
  storage: LocalStorage,
): Promise<void> {
  const key = String(req.params.key);
  if (
    !isStorageKey(key) ||
    !files.signer.grants("GET", key, req.query.expires, req.query.signature)
  )
    throw new NotFound();
  const upload = await attachedByKey(files.sql, key);
  if (upload === undefined) throw new NotFound();
  const inline = servedInline(files.rulesOf(upload.prefix, upload.field) ?? {}, upload.type);
  res.status(200);
  res.setHeader("Content-Type", upload.type);
  res.setHeader("Content-Length", String(upload.size));
  res.setHeader(
    "Content-Disposition",
    contentDisposition({ name: upload.name, type: upload.type, inline }),
  );
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
  res.setHeader("Cache-Control", "private, no-store");
  await new Promise<void>((resolve, reject) => {
    const stream = storage.read(key);
    // Gone from the disk under a row that still names it: as missing as a record that is gone.
    stream.on("error", (error) => (res.headersSent ? res.destroy(error) : reject(new NotFound())));
    res.on("close", () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
}
