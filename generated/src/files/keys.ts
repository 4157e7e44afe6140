// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { randomBytes } from "node:crypto";
import { uploadTokenPattern } from "../base/public-names.js";
import { base32Encode } from "../base/totp.js";

/*
 * The two random names of an upload: its token (what its uploader names it by in a payload) and its
 * storage key (where its bytes are, never the client's file name). 128 random bits each, in
 * lowercase base32: nothing a caller sends ever becomes a path or an object key.
 */

export { uploadTokenPattern };
const tokenText = new RegExp(uploadTokenPattern);
/** A storage key: 26 base32 characters (no slash, no dot: never a path of its own). */
const keyText = /^[a-z2-7]{26}$/;

export function newUploadToken(): string {
  return `upl_${base32Encode(randomBytes(16)).toLowerCase()}`;
}

export function newStorageKey(): string {
  return base32Encode(randomBytes(16)).toLowerCase();
}

export function isUploadToken(value: unknown): value is string {
  return typeof value === "string" && tokenText.test(value);
}

export function isStorageKey(value: unknown): value is string {
  return typeof value === "string" && keyText.test(value);
}
