// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/** Whether a value from outside (a JSON body, a row) is a plain object whose keys can be read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A record's own value at a key known only at run time (never one of Object.prototype's). */
export function ownValue(record: object, key: string): unknown {
  return Object.getOwnPropertyDescriptor(record, key)?.value;
}

/**
 * A property of a value from outside (an error a library threw, a worker's message), read by a name
 * fixed in code: undefined when the value is no object or lacks it.
 */
export function propertyOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

/** An error's message, whatever was thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A value that should be a list (a filter's `in` values, a payload's links): the list, else none. */
export function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
