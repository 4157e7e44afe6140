// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/**
 * The statements of a migration script, one by one, so a failure can name its statement. Splits at
 * `;` outside quotes and comments (Prisma writes one statement per `;`), except inside a trigger's
 * body (`CREATE TRIGGER … BEGIN …; …; END;`) or a dollar-quoted function body, each one statement.
 */
export function splitStatements(script: string): string[] {
  const statements: string[] = [];
  let current = "";
  for (let index = 0; index < script.length; index += 1) {
    const char = script[index]!;
    if (char === "-" && script[index + 1] === "-") {
      const end = script.indexOf("\n", index);
      index = end === -1 ? script.length : end;
      current += "\n";
      continue;
    }
    if (char === "/" && script[index + 1] === "*") {
      const end = script.indexOf("*/", index + 2);
      index = end === -1 ? script.length : end + 1;
      continue;
    }
    // PostgreSQL's dollar quoting (a function's body: `$$ … $$`, `$tag$ … $tag$`) is one literal.
    const tag =
      char === "$"
        ? /^\$(?:[A-Za-z_]\w*)?\$/.exec(script.slice(index, index + 64))?.[0]
        : undefined;
    if (tag !== undefined) {
      const end = script.indexOf(tag, index + tag.length);
      const stop = end === -1 ? script.length : end + tag.length;
      current += script.slice(index, stop);
      index = stop - 1;
      continue;
    }
    if (char === "'" || char === '"') {
      const end = closingQuote(script, index);
      current += script.slice(index, end + 1);
      index = end;
      continue;
    }
    if (char === ";" && insideTrigger(current)) {
      current += char;
      continue;
    }
    if (char === ";") {
      if (current.trim() !== "") statements.push(current.trim());
      current = "";
      continue;
    }
    current += char;
  }
  if (current.trim() !== "") statements.push(current.trim());
  return statements;
}

/** A trigger's body so far: its statements' `;` do not end it, its `END` does. */
function insideTrigger(statement: string): boolean {
  // SQLite's trigger has a BEGIN … END body; PostgreSQL's names a function and ends at its `;`.
  return (
    /^\s*CREATE\s+(?:TEMP\s+|TEMPORARY\s+)?TRIGGER\b[\s\S]*\bBEGIN\b/i.test(
      statement.replace(/"[^"]*"/g, '""'),
    ) && !/\bEND\s*$/i.test(statement)
  );
}

/** The index of the quote that closes the one at `start` (a doubled quote is an escaped one). */
function closingQuote(text: string, start: number): number {
  const quote = text[start];
  for (let index = start + 1; index < text.length; index += 1) {
    if (text[index] !== quote) continue;
    if (text[index + 1] === quote) index += 1;
    else return index;
  }
  return text.length - 1;
}
