// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { isIP } from "node:net";

/**
 * Which proxies in front of the service are believed about the client's address (Express's
 * "trust proxy"): none (false, the default: X-Forwarded-For is ignored), the nearest `n` hops, or
 * the proxies at these addresses or CIDR ranges. The login throttle and the request log then see
 * the address the trusted proxy reports.
 */
export type TrustProxy = false | number | string[];

/** Express's names for address ranges, accepted as they are. */
const namedRanges = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(entry: string): boolean {
  if (namedRanges.has(entry)) return true;
  const [address, bits, extra] = entry.split("/");
  const version = isIP(address ?? "");
  if (version === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as the service reads it: empty → false; a whole number → that many hops; else
 * comma-separated addresses, CIDR ranges or Express's named ranges. A string when it is none of these
 * (the problem, for the configuration error).
 */
export function parseTrustProxy(value: string | undefined): TrustProxy | string {
  const text = (value ?? "").trim();
  if (text === "" || text === "false") return false;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(",").map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !isAddressOrRange(entry));
  if (wrong.length === 0) return entries;
  return `TRUST_PROXY must be a number of hops or comma-separated addresses or CIDR ranges (e.g. "10.0.0.0/8,127.0.0.1"), got "${wrong.join(", ")}"`;
}

/**
 * CORS_ORIGINS as the service reads it: comma-separated exact origins (`https://app.example.com`,
 * scheme, host and port, nothing else); empty → none, and no CORS header is ever sent. A string when
 * an entry is not an origin (the problem, for the configuration error).
 */
export function parseCorsOrigins(value: string | undefined): string[] | string {
  const entries = (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  const wrong = entries.filter((entry) => {
    try {
      const url = new URL(entry);
      return (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== entry;
    } catch {
      return true;
    }
  });
  if (wrong.length === 0) return entries;
  return `CORS_ORIGINS must be comma-separated origins such as "https://app.example.com" (scheme, host and port, no path or trailing slash), got "${wrong.join(", ")}"`;
}
