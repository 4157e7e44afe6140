// The shape of a JSON reply whose values legitimately differ between servers (new hashes, times,
// tokens): keys in order, value types, and the format of each string.

const formats = [
  ["iso-datetime", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/],
  ["patient-hash", /^PAT_[A-HJ-NP-Z2-9]{8}$/],
  ["user-hash", /^USR_[A-HJ-NP-Z2-9]{8}$/],
  ["jwt", /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/],
  ["uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/],
  ["digits", /^\d+$/],
];

export function shapeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item)]));
  if (typeof value === "string") return `string:${formats.find(([, pattern]) => pattern.test(value))?.[0] ?? "text"}`;
  return typeof value;
}

/** A JWT's header as is and its claims as a shape (their values are per token). */
export function tokenShape(token) {
  const [header, payload] = token.split(".").map((part) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")));
  return { header, claims: shapeOf(payload) };
}
