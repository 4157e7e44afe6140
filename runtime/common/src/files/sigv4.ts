// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createHash, createHmac } from "node:crypto";

/*
 * Presigned S3 URLs (AWS Signature Version 4, query form), computed here rather than by the AWS
 * SDK's presigner: a record's file URL is made while its response is serialized, synchronously and
 * once per file of every row of a page, where the SDK's presigner is asynchronous and resolves its
 * credentials on each call. The algorithm is the published one; the tests check its URLs against an
 * S3-compatible server that verifies signatures.
 */

export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

export interface PresignRequest {
  readonly method: "GET" | "PUT";
  /** The endpoint's origin, e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000. */
  readonly endpoint: URL;
  readonly bucket: string;
  readonly key: string;
  readonly region: string;
  readonly expiresSeconds: number;
  /** Query parameters signed with the URL (response-content-disposition, …). */
  readonly query?: Readonly<Record<string, string>>;
  readonly now?: Date;
}

/** RFC 3986 encoding as SigV4 wants it: every byte but A–Z a–z 0–9 - . _ ~ (and `/` in paths). */
export function uriEncode(text: string, keepSlash = false): string {
  let encoded = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(char) || (keepSlash && char === "/")) encoded += char;
    else encoded += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return encoded;
}

const hmac = (key: Buffer | string, text: string) =>
  createHmac("sha256", key).update(text).digest();
const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

/** A presigned URL for one object, path-style (`<endpoint>/<bucket>/<key>`). */
export function presignedUrl(credentials: S3Credentials, request: PresignRequest): string {
  const now = request.now ?? new Date();
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const day = stamp.slice(0, 8);
  const scope = `${day}/${request.region}/s3/aws4_request`;
  const path = `${request.endpoint.pathname.replace(/\/$/, "")}/${uriEncode(request.bucket)}/${uriEncode(request.key, true)}`;
  const query: Record<string, string> = {
    ...request.query,
    "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
    "X-Amz-Credential": `${credentials.accessKeyId}/${scope}`,
    "X-Amz-Date": stamp,
    "X-Amz-Expires": String(request.expiresSeconds),
    "X-Amz-SignedHeaders": "host",
    ...(credentials.sessionToken ? { "X-Amz-Security-Token": credentials.sessionToken } : {}),
  };
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((name) => `${uriEncode(name)}=${uriEncode(query[name]!)}`)
    .join("&");
  const host = request.endpoint.host;
  const canonical = [
    request.method,
    path,
    canonicalQuery,
    `host:${host}`,
    "",
    "host",
    "UNSIGNED-PAYLOAD",
  ].join("\n");
  const toSign = ["AWS4-HMAC-SHA256", stamp, scope, sha256Hex(canonical)].join("\n");
  let key = hmac(`AWS4${credentials.secretAccessKey}`, day);
  for (const part of [request.region, "s3", "aws4_request"]) key = hmac(key, part);
  const signature = createHmac("sha256", key).update(toSign).digest("hex");
  return `${request.endpoint.protocol}//${host}${path}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}
