import { prettierOptions } from "../output/format-options.js";

/**
 * JSON laid out exactly as prettier's `json` parser lays out `JSON.stringify(value, null, 2)`, without
 * prettier: a non-empty object always takes one line per key (prettier keeps the line breaks it finds
 * after `{`), an array stays on one line when it and what follows it on the line fit in the width
 * (unless it is a list of several multi-entry arrays or objects, which prettier always breaks).
 * With `inlineObjects`, an object that fits stays on one line too, as prettier keeps one written so.
 * For a large document (openapi.json of 100 resources: 2 MB) this takes milliseconds where prettier
 * takes more than a second; json-layout.test.ts compares the two.
 */
export function layoutJson(value: unknown, { inlineObjects = false }: { inlineObjects?: boolean } = {}): string {
  const out: string[] = [];
  layout(value, "", 0, { width: prettierOptions.printWidth ?? 80, inlineObjects }, 0, out);
  out.push("\n");
  return out.join("");
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Style {
  width: number;
  /**
   * Objects on one line where they fit, as prettier keeps an object written on one line: the same
   * fixed point of prettier's json printer, in far fewer lines (resources' declarations).
   */
  inlineObjects: boolean;
}

/**
 * Appends the value's text to `out`. `column`: where the value starts; `trailer`: characters that
 * follow it on its line (a comma). Pieces go to one list joined once at the end: joining each level's
 * lines into a string would copy a deep document's text once per level (openapi.json: 2 MB).
 */
function layout(value: unknown, indent: string, column: number, style: Style, trailer: number, out: string[]): void {
  const json = value as Json;
  if (json === null || typeof json !== "object") {
    out.push(JSON.stringify(json));
    return;
  }
  const entries = Array.isArray(json) ? json.length : Object.keys(json).length;
  if (entries === 0) {
    out.push(Array.isArray(json) ? "[]" : "{}");
    return;
  }
  const flat = Array.isArray(json) || style.inlineObjects ? oneLine(json, style, style.width - column - trailer) : undefined;
  if (flat !== undefined) {
    out.push(flat);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(json)) {
    out.push("[\n");
    json.forEach((item, index) => {
      const last = index === json.length - 1;
      out.push(inner);
      layout(item, inner, inner.length, style, last ? 0 : 1, out);
      out.push(last ? "\n" : ",\n");
    });
    out.push(`${indent}]`);
    return;
  }
  const keys = Object.keys(json);
  out.push("{\n");
  keys.forEach((key, index) => {
    const last = index === keys.length - 1;
    const prefix = `${inner}${quotedKey(key)}: `;
    out.push(prefix);
    layout(json[key], inner, prefix.length, style, last ? 0 : 1, out);
    out.push(last ? "\n" : ",\n");
  });
  out.push(`${indent}}`);
}

/**
 * The value on one line, or undefined when prettier would break it whatever the width (an object,
 * unless objects may stay inline; an array of two or more objects, or of two or more arrays, each
 * with more than one entry) or when it is longer than `room`. Giving up as soon as the line is too
 * long keeps this linear: each level of a deep document would otherwise write all of its descendants
 * on one line before breaking (≈ 90 ms of a `--check` at 100 resources).
 */
function oneLine(json: Json, style: Style, room: number): string | undefined {
  if (json === null || typeof json !== "object") {
    const text = JSON.stringify(json);
    return text.length <= room ? text : undefined;
  }
  if (Array.isArray(json)) {
    if (json.length === 0) return room >= 2 ? "[]" : undefined;
    if (alwaysBroken(json)) return undefined;
    return joined(json.map((item) => ["", item] as const), "[", "]", style, room);
  }
  const keys = Object.keys(json);
  if (keys.length === 0) return room >= 2 ? "{}" : undefined;
  if (!style.inlineObjects) return undefined;
  return joined(keys.map((key) => [`${quotedKey(key)}: `, json[key]!] as const), "{ ", " }", style, room);
}

/** `open`, each entry's label and value on one line joined by ", ", `close`: undefined past `room`. */
function joined(entries: readonly (readonly [string, Json])[], open: string, close: string, style: Style, room: number): string | undefined {
  let length = open.length + close.length;
  const parts: string[] = [];
  for (const [label, value] of entries) {
    const separator = parts.length > 0 ? 2 : 0;
    const part = oneLine(value, style, room - length - separator - label.length);
    if (part === undefined) return undefined;
    length += separator + label.length + part.length;
    parts.push(`${label}${part}`);
  }
  return length <= room ? `${open}${parts.join(", ")}${close}` : undefined;
}

function alwaysBroken(items: Json[]): boolean {
  if (items.length < 2) return false;
  const several = (item: Json) =>
    item !== null && typeof item === "object" && (Array.isArray(item) ? item.length : Object.keys(item).length) > 1;
  const allArrays = items.every((item) => Array.isArray(item) && several(item));
  const allObjects = items.every((item) => item !== null && typeof item === "object" && !Array.isArray(item) && several(item));
  return allArrays || allObjects;
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
