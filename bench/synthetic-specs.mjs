// Writes N synthetic resource specs with relations, from a fixed seed: the same N gives the same files.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function writeSyntheticSpecs(dir, count, seed = 42) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let state = seed;
  const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const prefix = (index) => `${letters[Math.floor(index / 676) % 26]}${letters[Math.floor(index / 26) % 26]}${letters[index % 26]}`;
  const names = Array.from({ length: count }, (_, index) => `Entity${String.fromCharCode(65 + (index % 26))}${index}`.replace(/\d+$/, (digits) => digits.split("").map((d) => letters[Number(d)]).join("")));
  writeFileSync(join(dir, "hashapi.yaml"), "name: synthetic-api\n");
  names.forEach((name, index) => {
    const lines = [`name: ${name}`, `prefix: ${prefix(index)}`, ...(random() < 0.3 ? ["softDelete: true"] : []), "fields:"];
    lines.push("  title: { type: string, max: 120 }", "  code: { type: string, length: 8, unique: true }");
    if (random() < 0.5) lines.push("  amount: { type: decimal, precision: 10, scale: 2, nullable: true }");
    if (random() < 0.5) lines.push("  status: { type: enum, values: [draft, active, closed], default: draft }");
    if (random() < 0.5) lines.push("  happened_on: { type: date, nullable: true }");
    if (index > 0 && random() < 0.7) {
      const target = names[Math.floor(random() * index)];
      lines.push("relations:", `  parent: { type: belongsTo, resource: ${target}${random() < 0.5 ? ", required: true" : ""} }`);
      if (random() < 0.5) lines.push("eagerLoad: [parent]");
    }
    writeFileSync(join(dir, `${name}.yaml`), `${lines.join("\n")}\n`);
  });
}
