// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import {
  createCipheriv,
  createDecipheriv,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from "node:crypto";

/** Where a cursor page starts: after (next) or before (prev) the row whose order keys are `values`. */
export interface CursorPosition {
  readonly direction: "next" | "prev";
  readonly values: readonly unknown[];
}

const ivLength = 12;
const tagLength = 16;

/**
 * Cursors for `?cursor=` pagination: opaque and tamper-checked. The position is encrypted with
 * AES-256-GCM under a key derived from the JWT secret, so a client reads nothing from it (not even
 * internal ids, which public hashes exist to hide) and cannot forge one; the query it belongs to
 * (path, caller, sort, filters, search) is authenticated with it, so a cursor used on another
 * query or by another user is refused instead of reading from a position it never reached.
 * Rotating JWT_SECRET invalidates every cursor, as it does every token.
 */
export class CursorCodec {
  private readonly key: Buffer;

  constructor(secret: KeyObject) {
    this.key = Buffer.from(
      hkdfSync("sha256", secret.export(), Buffer.alloc(0), "hashapi list cursor", 32),
    );
  }

  seal(position: CursorPosition, binding: string): string {
    const iv = randomBytes(ivLength);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv, { authTagLength: tagLength });
    cipher.setAAD(Buffer.from(binding));
    const text = JSON.stringify([position.direction === "next" ? 1 : 0, ...position.values]);
    const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
  }

  /** The position a cursor holds, or undefined when it is not one this service sealed for `binding`. */
  open(cursor: string, binding: string): CursorPosition | undefined {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
    const bytes = Buffer.from(cursor, "base64url");
    // Decoding drops trailing characters that make no whole byte: only the exact text sealed is one.
    if (bytes.length <= ivLength + tagLength || bytes.toString("base64url") !== cursor)
      return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, bytes.subarray(0, ivLength), {
        authTagLength: tagLength,
      });
      decipher.setAAD(Buffer.from(binding));
      decipher.setAuthTag(bytes.subarray(ivLength, ivLength + tagLength));
      const text = Buffer.concat([
        decipher.update(bytes.subarray(ivLength + tagLength)),
        decipher.final(),
      ]).toString("utf8");
      const parsed: unknown = JSON.parse(text);
      if (!Array.isArray(parsed) || (parsed[0] !== 0 && parsed[0] !== 1)) return undefined;
      return { direction: parsed[0] === 1 ? "next" : "prev", values: parsed.slice(1) };
    } catch {
      // A wrong tag (forged, altered, another query's or another secret's cursor) throws in final().
      return undefined;
    }
  }
}
