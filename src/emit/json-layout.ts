/**
 * JSON laid out exactly as prettier's `json` parser lays out `JSON.stringify(value, null, 2)`, without
 * prettier: a non-empty object always takes one line per key (prettier keeps the line breaks it finds
 * after `{`), an array stays on one line when it and what follows it on the line fit in the width.
 * For a large document (openapi.json of 100 resources: 2 MB) this takes milliseconds where prettier
 * takes more than a second; json-layout.test.ts compares the two.
 */
export function layoutJson(value: unknown, width = 100): string {
  return `${layout(value, "", 0, width)}\n`;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `column`: where the value starts; `trailer`: characters that follow it on its line (a comma). */
function layout(value: unknown, indent: string, column: number, width: number, trailer = 0): string {
  const json = value as Json;
  if (Array.isArray(json)) {
    if (json.length === 0) return "[]";
    const flat = flatArray(json);
    if (flat !== undefined && column + flat.length + trailer <= width) return flat;
    const inner = `${indent}  `;
    const items = json.map((item, index) => `${inner}${layout(item, inner, inner.length, width, index < json.length - 1 ? 1 : 0)}`);
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  if (json !== null && typeof json === "object") {
    const keys = Object.keys(json);
    if (keys.length === 0) return "{}";
    const inner = `${indent}  `;
    const entries = keys.map((key, index) => {
      const prefix = `${inner}${quotedKey(key)}: `;
      return `${prefix}${layout(json[key], inner, prefix.length, width, index < keys.length - 1 ? 1 : 0)}`;
    });
    return `{\n${entries.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(json);
}

/** An array on one line, or undefined when an element must break (a non-empty object). */
function flatArray(items: Json[]): string | undefined {
  const parts: string[] = [];
  for (const item of items) {
    if (Array.isArray(item)) {
      const inner = item.length === 0 ? "[]" : flatArray(item);
      if (inner === undefined) return undefined;
      parts.push(inner);
    } else if (item !== null && typeof item === "object") {
      if (Object.keys(item).length > 0) return undefined;
      parts.push("{}");
    } else parts.push(JSON.stringify(item));
  }
  return `[${parts.join(", ")}]`;
}

// A document repeats few keys many times ("type", "properties"…): each is quoted once.
const quotedKeys = new Map<string, string>();
function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < 10_000) quotedKeys.set(key, quoted);
  }
  return quoted;
}
