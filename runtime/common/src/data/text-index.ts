// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { foldText } from "../db/text-folding.js";
import type { ListCondition } from "./list-conditions.js";
import { textMatchOperators } from "./list-operators.js";

/*
 * SQLite's trigram index of a table's text columns is an FTS5 table (the migration writes it and
 * keeps it in step by triggers: `hashapi_text_<table>_fts`). A list's WHERE keeps its exact conditions
 * (each row's folded text compared by `hashapi_fold`) and adds `id IN (rows the index matches)`:
 * the index only narrows which rows are compared, so what it holds can never widen an answer, and
 * where it cannot answer for a condition that condition is simply not narrowed. PostgreSQL needs
 * none of this: its GIN index is on the very expression the condition compares.
 */

/** The FTS5 table the migration writes for a table's text-indexed columns (src/migrate/text-indexes.ts). */
export function textIndexTable(table: string): string {
  return `hashapi_text_${table}_fts`;
}

/**
 * Characters whose case FTS5's `trigram` tokenizer folds otherwise than JavaScript's toLowerCase
 * (newer uppercase letters: Georgian Mtavruli, Cherokee, Latin additions, U+0307 of İ's "i̇"): a
 * pattern holding one of them is compared by scan, as without an index. Derived from the bundled
 * SQLite; test/runtime/text-index.test.ts derives it again from the driver and compares.
 */
export const foldedOtherwiseByIndex =
  /[\u0307\u019b\u025c\u0261\u0264\u026a\u026c\u0282\u0287\u029d\u029e\u03f3\u0529\u052b\u052d\u052f\u10d0-\u10fa\u10fd-\u10ff\u13f8-\u13fd\u1c8a\u1d8e\u2c5f\ua699\ua69b\ua794\ua797\ua799\ua79b\ua79d\ua79f\ua7b5\ua7b7\ua7b9\ua7bb\ua7bd\ua7bf\ua7c1\ua7c3\ua7c8\ua7ca\ua7cd\ua7cf\ua7d1\ua7d3\ua7d5\ua7d7\ua7d9\ua7db\ua7f6\uab53\uab70-\uabbf\u{104d8}-\u{104fb}\u{10597}-\u{105a1}\u{105a3}-\u{105b1}\u{105b3}-\u{105b9}\u{105bb}-\u{105bc}\u{10cc0}-\u{10cf2}\u{10d70}-\u{10d85}\u{118c0}-\u{118df}\u{16e60}-\u{16e7f}\u{16ebb}-\u{16ed3}\u{1e922}-\u{1e943}]/u;

/**
 * An FTS5 query every row satisfying all of `conditions` also matches, or undefined when the index
 * narrows none of them. A substring of at least three characters holds each of its trigrams in its
 * column; `any` narrows when each of its branches does, `all` by those of its parts that do.
 */
export function textIndexQuery(
  conditions: readonly ListCondition[],
  indexed: ReadonlySet<string>,
): string | undefined {
  return allOf(conditions.map((condition) => narrowing(condition, indexed)));
}

function allOf(parts: readonly (string | undefined)[]): string | undefined {
  const narrowed = parts.filter((part): part is string => part !== undefined);
  if (narrowed.length === 0) return undefined;
  return narrowed.length === 1 ? narrowed[0] : `(${narrowed.join(" AND ")})`;
}

function narrowing(condition: ListCondition, indexed: ReadonlySet<string>): string | undefined {
  if ("all" in condition) return allOf(condition.all.map((part) => narrowing(part, indexed)));
  if ("any" in condition) {
    const branches = condition.any.map((part) => narrowing(part, indexed));
    if (branches.length === 0 || branches.includes(undefined)) return undefined;
    return branches.length === 1 ? branches[0] : `(${branches.join(" OR ")})`;
  }
  if (!("column" in condition) || !textMatchOperators.has(condition.op)) return undefined;
  if (!indexed.has(condition.column)) return undefined;
  // A trailing `i` may be the first half of a folded İ ("i̇"), which FTS5 keeps as İ: left out.
  const folded = foldText(String(condition.value)).replace(/i$/, "");
  // The tokenizer matches nothing shorter than one trigram.
  if ([...folded].length < 3 || foldedOtherwiseByIndex.test(folded)) return undefined;
  const terms = trigramsOf(folded).map((trigram) => `"${trigram.replaceAll('"', '""')}"`);
  return `${condition.column} : ${terms.length === 1 ? terms[0] : `(${terms.join(" AND ")})`}`;
}

/** At most this many of a pattern's trigrams are asked for: each is a list of rows to read. */
export const maxTrigramsAsked = 12;

/**
 * The distinct trigrams of a folded pattern, at most `maxTrigramsAsked` spread over it. Terms, not
 * a phrase: the index keeps no positions (detail=column), so what a query reads is bounded by the
 * rows that hold its trigrams, never by how often they repeat in a text (a phrase of 62 trigrams
 * over 4,000 texts of 20,000 "a"s took 12 s, and nothing can stop it midway).
 */
export function trigramsOf(folded: string): string[] {
  const characters = [...folded];
  const all = [
    ...new Set(characters.slice(0, -2).map((_, at) => characters.slice(at, at + 3).join(""))),
  ];
  if (all.length <= maxTrigramsAsked) return all;
  const step = (all.length - 1) / (maxTrigramsAsked - 1);
  return Array.from({ length: maxTrigramsAsked }, (_, index) => all[Math.round(index * step)]!);
}
