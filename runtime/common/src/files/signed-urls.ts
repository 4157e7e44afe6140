// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createHmac, timingSafeEqual, type KeyObject } from "node:crypto";

/*
 * The `local` driver's own short-lived URLs: a download of a stored file, and the PUT of a
 * two-phase upload's bytes. Each is signed with a key derived from the service's JWT secret (never
 * that secret itself) over what it grants: the method, the object, and the second it expires.
 */

export class UrlSigner {
  private readonly key: Buffer;

  constructor(secret: KeyObject) {
    this.key = createHmac("sha256", secret.export()).update("hashapi files v1").digest();
  }

  /** `?expires=…&signature=…` granting `method` on `name` until `expiresAt`. */
  query(method: "GET" | "PUT", name: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `expires=${expires}&signature=${this.signature(method, name, expires)}`;
  }

  /** Whether a request's `expires` and `signature` grant `method` on `name` now. */
  grants(
    method: "GET" | "PUT",
    name: string,
    expires: unknown,
    signature: unknown,
    now = new Date(),
  ): boolean {
    if (typeof expires !== "string" || !/^\d{1,12}$/.test(expires)) return false;
    if (typeof signature !== "string" || !/^[0-9a-f]{64}$/.test(signature)) return false;
    if (Number(expires) * 1000 < now.getTime()) return false;
    const wanted = Buffer.from(this.signature(method, name, Number(expires)), "hex");
    return timingSafeEqual(wanted, Buffer.from(signature, "hex"));
  }

  private signature(method: string, name: string, expires: number): string {
    return createHmac("sha256", this.key).update(`${method}\n${name}\n${expires}`).digest("hex");
  }
}
