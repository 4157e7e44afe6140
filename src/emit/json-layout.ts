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
  return `${layout(value, "", 0, { width: prettierOptions.printWidth ?? 80, inlineObjects })}\n`;
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

/** `column`: where the value starts; `trailer`: characters that follow it on its line (a comma). */
function layout(value: unknown, indent: string, column: number, style: Style, trailer = 0): string {
  const json = value as Json;
  if (json === null || typeof json !== "object") return JSON.stringify(json);
  const entries = Array.isArray(json) ? json.length : Object.keys(json).length;
  if (entries === 0) return Array.isArray(json) ? "[]" : "{}";
  const flat = Array.isArray(json) || style.inlineObjects ? oneLine(json, style) : undefined;
  if (flat !== undefined && column + flat.length + trailer <= style.width) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(json)) {
    const items = json.map((item, index) => `${inner}${layout(item, inner, inner.length, style, index < json.length - 1 ? 1 : 0)}`);
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  const keys = Object.keys(json);
  const lines = keys.map((key, index) => {
    const prefix = `${inner}${quotedKey(key)}: `;
    return `${prefix}${layout(json[key], inner, prefix.length, style, index < keys.length - 1 ? 1 : 0)}`;
  });
  return `{\n${lines.join(",\n")}\n${indent}}`;
}

/**
 * The value on one line, or undefined when prettier would break it whatever the width: an object
 * (unless objects may stay inline), or an array of two or more objects, or of two or more arrays,
 * each with more than one entry.
 */
function oneLine(json: Json, style: Style): string | undefined {
  if (json === null || typeof json !== "object") return JSON.stringify(json);
  if (Array.isArray(json)) {
    if (json.length === 0) return "[]";
    if (alwaysBroken(json)) return undefined;
    const parts: string[] = [];
    for (const item of json) {
      const part = oneLine(item, style);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    return `[${parts.join(", ")}]`;
  }
  const keys = Object.keys(json);
  if (keys.length === 0) return "{}";
  if (!style.inlineObjects) return undefined;
  const parts: string[] = [];
  for (const key of keys) {
    const part = oneLine(json[key]!, style);
    if (part === undefined) return undefined;
    parts.push(`${quotedKey(key)}: ${part}`);
  }
  return `{ ${parts.join(", ")} }`;
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
