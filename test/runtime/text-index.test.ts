import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { searchCondition } from "../../runtime/common/src/data/list-conditions.js";
import { foldedOtherwiseByIndex, textIndexQuery } from "../../runtime/common/src/data/text-index.js";

const indexed = new Set(["name", "notes"]);

describe("the FTS5 query that narrows a list (runtime data/text-index.ts)", () => {
  it("is a phrase per substring condition on an indexed column, folded and quoted", () => {
    expect(textIndexQuery([{ column: "name", op: "contains", value: 'ÉLO"di' }], indexed)).toBe('name : "élo""di"');
    expect(textIndexQuery([{ column: "name", op: "starts_with", value: "Ana" }, { column: "notes", op: "ends_with", value: "xyz" }], indexed)).toBe('(name : "ana" AND notes : "xyz")');
  });

  it("narrows a search word by word, each word in any searched column", () => {
    expect(textIndexQuery([searchCondition(["name", "notes"], ["silva", "maria"])], indexed)).toBe('((name : "silva" OR notes : "silva") AND (name : "maria" OR notes : "maria"))');
  });

  it("leaves alone what the index cannot answer for, so the exact comparison decides", () => {
    // Shorter than a trigram, a column without the index, an operator that is no substring.
    expect(textIndexQuery([{ column: "name", op: "contains", value: "ab" }], indexed)).toBeUndefined();
    expect(textIndexQuery([{ column: "code", op: "contains", value: "abc" }], indexed)).toBeUndefined();
    expect(textIndexQuery([{ column: "name", op: "eq", value: "abc" }], indexed)).toBeUndefined();
    // A search word in a column without the index: the word is not narrowed, the others are.
    expect(textIndexQuery([searchCondition(["name", "code"], ["silva"]), { column: "notes", op: "contains", value: "xyz" }], indexed)).toBe('notes : "xyz"');
    // A character FTS5 folds otherwise (Georgian Mtavruli's lower case): scanned.
    expect(textIndexQuery([{ column: "name", op: "contains", value: "ᲐᲑᲒ" }], indexed)).toBeUndefined();
  });

  it("names every character the bundled SQLite's trigram tokenizer folds otherwise than toLowerCase", () => {
    const db = new Database(":memory:");
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, content='', contentless_delete=1, tokenize='trigram')`);
    const insert = db.prepare("INSERT INTO t (rowid, x) VALUES (?, ?)");
    const characters: number[] = [];
    for (let code = 0x80; code < 0x30000; code += 1) if (code < 0xd800 || code >= 0xe000) characters.push(code);
    db.transaction(() => characters.forEach((code) => insert.run(code, `q${String.fromCodePoint(code)}z`)))();
    const match = db.prepare("SELECT rowid FROM t WHERE t MATCH ?").pluck();
    const otherwise = new Set<string>();
    for (const code of characters) {
      const lower = String.fromCodePoint(code).toLowerCase();
      if (!(match.all(`"q${lower.replaceAll('"', '""')}z"`) as number[]).includes(code))
        for (const character of lower) if (character.codePointAt(0)! >= 0x80) otherwise.add(character);
    }
    db.close();
    expect(otherwise.size).toBeGreaterThan(0);
    for (const character of otherwise) expect(foldedOtherwiseByIndex.test(character), `U+${character.codePointAt(0)!.toString(16)}`).toBe(true);
    // And nothing more: an ordinary accented letter or Greek keeps the index.
    for (const character of "éçãßσς") expect(foldedOtherwiseByIndex.test(character)).toBe(false);
  });
});
