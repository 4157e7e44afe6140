// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { FileRules } from "../src/files/file-rules.js";

/*
 * A small file each file field's rules take, for the generated tests: a PDF, a PNG of one pixel or
 * plain text, padded to the field's `min`. Undefined where none of these fits the rules (a field
 * for docx only, an image that must be wider than one pixel): that field is not tested with one.
 */

const onePixelPng = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n");
const textExtensions = ["txt", "csv", "md", "json", "log", "tsv"];

export interface SampleFile {
  readonly name: string;
  readonly bytes: Buffer;
  readonly type: string;
}

function fitsOnePixel(rules: FileRules): boolean {
  const limits = rules.dimensions ?? {};
  return (
    (limits.min_width ?? 1) <= 1 &&
    (limits.min_height ?? 1) <= 1 &&
    (limits.width ?? 1) === 1 &&
    (limits.height ?? 1) === 1
  );
}

function typed(rules: FileRules): SampleFile | undefined {
  const mimes = rules.mimes ?? [];
  const types = rules.mimetypes ?? [];
  const takes = (type: string) =>
    types.some(
      (rule) => rule === type || (rule.endsWith("/*") && type.startsWith(rule.slice(0, -1))),
    );
  const png = { name: "sample.png", bytes: onePixelPng, type: "image/png" };
  if (rules.image) return fitsOnePixel(rules) ? png : undefined;
  if (mimes.includes("pdf") || takes("application/pdf"))
    return { name: "sample.pdf", bytes: pdf, type: "application/pdf" };
  if (mimes.includes("png") || takes("image/png")) return png;
  const text = mimes.find((extension) => textExtensions.includes(extension));
  if (text) return { name: `sample.${text}`, bytes: Buffer.from("sample\n"), type: "text/plain" };
  if (mimes.length === 0 && types.length === 0)
    return { name: "sample.txt", bytes: Buffer.from("sample\n"), type: "text/plain" };
  if (takes("text/plain"))
    return { name: "sample.txt", bytes: Buffer.from("sample\n"), type: "text/plain" };
  return undefined;
}

/** A file the rules take, or undefined. */
export function sampleFile(rules: FileRules): SampleFile | undefined {
  const sample = typed(rules);
  if (!sample) return undefined;
  const min = rules.minBytes ?? 0;
  if (min > rules.maxBytes || min > 4 * 1024 * 1024) return undefined;
  if (sample.bytes.length >= min) return sample;
  // Padded at the end: the type is read from the first bytes.
  const pad = sample.type === "image/png" ? 0x00 : 0x20;
  return {
    ...sample,
    bytes: Buffer.concat([sample.bytes, Buffer.alloc(min - sample.bytes.length, pad)]),
  };
}
