// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from "node:crypto";

/*
 * Secrets the service must read back (a user's TOTP secret) are stored sealed: AES-256-GCM under a
 * key derived (HKDF-SHA256) from JWT_SECRET, so a copy of the database alone holds none of them.
 * Changing JWT_SECRET makes them unreadable: every user then sets their second factor up again
 * (docs: spec-format "Two-factor authentication").
 */
export class SecretBox {
  private readonly sealing: Buffer;
  private readonly digesting: Buffer;

  constructor(secret: KeyObject) {
    const material = secret.export();
    this.sealing = Buffer.from(hkdfSync("sha256", material, "hashapi", "sealed secrets", 32));
    this.digesting = Buffer.from(hkdfSync("sha256", material, "hashapi", "keyed digests", 32));
  }

  seal(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.sealing, iv);
    const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
    return ["v1", iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
      .join(".");
  }

  /** The sealed text, or undefined when it was sealed under another key (or is not a seal). */
  open(sealed: string): string | undefined {
    const [version, iv, tag, data] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || data === undefined) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.sealing, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([
        decipher.update(Buffer.from(data, "base64url")),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      return undefined;
    }
  }

  /** A keyed digest (HMAC-SHA256): what is stored of a recovery code, useless without the key. */
  digest(text: string): string {
    return createHmac("sha256", this.digesting).update(text, "utf8").digest("hex");
  }
}
