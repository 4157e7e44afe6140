// Prisma's SQLite adapter stores a DateTime as ISO-8601 text with "+00:00" for "Z"
// (2026-11-22T22:47:54.762+00:00); the service outputs toISOString(). Writers that bypass Prisma
// (the reference server, the seeder) must use the same text, or ordering and parsing would differ.

export function toStoredDate(date) {
  return date.toISOString().replace("Z", "+00:00");
}

const storedShape = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

export function isStoredDate(text) {
  return typeof text === "string" && storedShape.test(text);
}

/** Stored text → the service's output; the slice is the common case, Date parsing the fallback. */
export function storedToIso(text) {
  if (text === null) return null;
  return storedShape.test(text) ? `${text.slice(0, 23)}Z` : new Date(text).toISOString();
}
