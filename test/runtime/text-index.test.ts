import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { searchCondition } from "../../runtime/common/src/data/list-conditions.js";
import { foldedOtherwiseByIndex, maxTrigramsAsked, textIndexQuery, trigramsOf } from "../../runtime/common/src/data/text-index.js";

const indexed = new Set(["name", "notes"]);
const silva = `("sil" AND "ilv" AND "lva")`;
const maria = `("mar" AND "ari" AND "ria")`;

describe("the FTS5 query that narrows a list (runtime data/text-index.ts)", () => {
  it("asks for each trigram of a substring condition in its column, folded and quoted", () => {
    expect(textIndexQuery([{ column: "name", op: "contains", value: `ÉLO"dy` }], indexed)).toBe(`name : ("élo" AND "lo""" AND "o""d" AND """dy")`);
    expect(textIndexQuery([{ column: "name", op: "starts_with", value: "Ana" }, { column: "notes", op: "ends_with", value: "xyz" }], indexed)).toBe(`(name : "ana" AND notes : "xyz")`);
  });

  it("asks for each distinct trigram once, and at most 12 of them, spread over the pattern", () => {
    expect(trigramsOf("aaaaaaab")).toEqual(["aaa", "aab"]);
    const many = trigramsOf("abcdefghijklmnopqrstuvwxyz");
    expect(many).toHaveLength(maxTrigramsAsked);
    expect([many[0], many.at(-1)]).toEqual(["abc", "xyz"]);
  });

  it("narrows a search word by word, each word in any searched column", () => {
    expect(textIndexQuery([searchCondition(["name", "notes"], ["silva", "maria"])], indexed)).toBe(`((name : ${silva} OR notes : ${silva}) AND (name : ${maria} OR notes : ${maria}))`);
  });

  it("leaves alone what the index cannot answer for, so the exact comparison decides", () => {
    // Shorter than a trigram, a column without the index, an operator that is no substring.
    expect(textIndexQuery([{ column: "name", op: "contains", value: "ab" }], indexed)).toBeUndefined();
    expect(textIndexQuery([{ column: "code", op: "contains", value: "abc" }], indexed)).toBeUndefined();
    expect(textIndexQuery([{ column: "name", op: "eq", value: "abc" }], indexed)).toBeUndefined();
    // A search word in a column without the index: the word is not narrowed, the others are.
    expect(textIndexQuery([searchCondition(["name", "code"], ["silva"]), { column: "notes", op: "contains", value: "xyz" }], indexed)).toBe(`notes : "xyz"`);
    // A trailing i may be the first half of a folded İ ("i̇", kept as İ by FTS5): left out.
    expect(textIndexQuery([{ column: "name", op: "contains", value: "Yasemi" }], indexed)).toBe(`name : ("yas" AND "ase" AND "sem")`);
    expect(textIndexQuery([{ column: "name", op: "contains", value: "emi" }], indexed)).toBeUndefined();
    // A character FTS5 folds otherwise (Georgian Mtavruli's lower case): scanned.
    expect(textIndexQuery([{ column: "name", op: "contains", value: "ᲐᲑᲒ" }], indexed)).toBeUndefined();
  });

  it("names every character the bundled SQLite's trigram tokenizer folds otherwise than toLowerCase", () => {
    const db = new Database(":memory:");
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, content='', contentless_delete=1, tokenize='trigram', detail='column')`);
    const insert = db.prepare("INSERT INTO t (rowid, x) VALUES (?, ?)");
    const characters: number[] = [];
    for (let code = 0x80; code < 0x30000; code += 1) if (code < 0xd800 || code >= 0xe000) characters.push(code);
    db.transaction(() => characters.forEach((code) => insert.run(code, `q${String.fromCodePoint(code)}z`)))();
    const match = db.prepare("SELECT rowid FROM t WHERE t MATCH ?").pluck();
    const otherwise = new Set<string>();
    for (const code of characters) {
      const lower = String.fromCodePoint(code).toLowerCase();
      // One character between q and z is one trigram: a term of the index.
      if ([...lower].length === 1 && !(match.all(`"q${lower.replaceAll('"', '""')}z"`) as number[]).includes(code))
        for (const character of lower) if (character.codePointAt(0)! >= 0x80) otherwise.add(character);
    }
    db.close();
    expect(otherwise.size).toBeGreaterThan(0);
    for (const character of otherwise) expect(foldedOtherwiseByIndex.test(character), `U+${character.codePointAt(0)!.toString(16)}`).toBe(true);
    // And nothing more: an ordinary accented letter or Greek keeps the index.
    for (const character of "éçãßσς") expect(foldedOtherwiseByIndex.test(character)).toBe(false);
  });
});
