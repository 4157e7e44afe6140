#!/usr/bin/env node
// The runtime's shape in numbers, for reviews and closing notes (issue 32): the largest files and
// functions, `any`, casts, dialect branches outside the drivers and the files that name relation
// kinds. Reads the TypeScript with ts-morph, so comments and strings do not count.
//
//   node scripts/runtime-metrics.mjs            a table
//   node scripts/runtime-metrics.mjs --json     the same figures as JSON
//   node scripts/runtime-metrics.mjs --kinds    and the files that name relation kinds
import { Node, Project, SyntaxKind } from "ts-morph";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const project = new Project({ skipAddingFilesFromTsConfig: true });
project.addSourceFilesAtPaths([`${root}/runtime/*/src/**/*.ts`]);
const generator = new Project({ skipAddingFilesFromTsConfig: true });
generator.addSourceFilesAtPaths([`${root}/src/**/*.ts`]);

const relative = (file) => path.relative(root, file.getFilePath());
const lines = (node) => node.getEndLineNumber() - node.getStartLineNumber() + 1;

const files = [];
const functions = [];
let anys = 0;
let casts = 0;
const dialectBranches = [];
for (const file of project.getSourceFiles()) {
  const name = relative(file);
  files.push({ name, lines: file.getEndLineNumber() });
  file.forEachDescendant((node) => {
    if (node.getKind() === SyntaxKind.AnyKeyword) anys += 1;
    if (Node.isAsExpression(node) && node.getTypeNode()?.getText() !== "const") casts += 1;
    if (Node.isTypeAssertion(node)) casts += 1;
    if (
      Node.isFunctionDeclaration(node) ||
      Node.isMethodDeclaration(node) ||
      Node.isArrowFunction(node) ||
      Node.isFunctionExpression(node) ||
      Node.isConstructorDeclaration(node)
    ) {
      const label = node.getName?.() ?? node.getParent()?.getName?.() ?? "(anonymous)";
      functions.push({ name: `${name}:${label}`, lines: lines(node) });
    }
    if (Node.isBinaryExpression(node) && /^[!=]==?$/.test(node.getOperatorToken().getText())) {
      const sides = `${node.getLeft().getText()} ${node.getRight().getText()}`;
      if (/dialect\b/i.test(sides) && !/^runtime\/(sqlite|postgresql)\//.test(name))
        dialectBranches.push(`${name}:${node.getStartLineNumber()}`);
    }
  });
}

// A file names a relation kind when its code (not its comments) does: an identifier, a property or
// a string that is exactly a kind's name.
const relationKinds = new Set(["belongsTo", "hasMany", "belongsToMany"]);
const namesKind = (file) =>
  file.getDescendants().some(
    (node) =>
      (Node.isIdentifier(node) || Node.isStringLiteral(node)) &&
      relationKinds.has(Node.isStringLiteral(node) ? node.getLiteralValue() : node.getText()),
  );
const namingKinds = (sourceFiles) => sourceFiles.filter(namesKind).map(relative);
const runtimeKindFiles = namingKinds(project.getSourceFiles());
const generatorKindFiles = namingKinds(generator.getSourceFiles());
// A file names every kind when it knows them all (a switch over kinds, a table of them): where a
// new kind must be added. Naming one kind is using that kind's meaning (an owner path runs through
// belongsTo), which a new kind leaves alone.
const namedKinds = (file) =>
  new Set(
    file
      .getDescendants()
      .filter((node) => Node.isIdentifier(node) || Node.isStringLiteral(node))
      .map((node) => (Node.isStringLiteral(node) ? node.getLiteralValue() : node.getText()))
      .filter((text) => relationKinds.has(text)),
  );
const namingEveryKind = (sourceFiles) =>
  sourceFiles.filter((file) => namedKinds(file).size === relationKinds.size).map(relative);
const runtimeEveryKindFiles = namingEveryKind(project.getSourceFiles());
const generatorEveryKindFiles = namingEveryKind(generator.getSourceFiles());

files.sort((a, b) => b.lines - a.lines);
functions.sort((a, b) => b.lines - a.lines);
const figures = {
  runtimeFiles: files.length,
  largestFile: files[0],
  filesOver400: files.filter((file) => file.lines > 400),
  largestFunction: functions[0],
  functionsOver60: functions.filter((fn) => fn.lines > 60),
  any: anys,
  casts,
  dialectBranchesOutsideDrivers: dialectBranches,
  filesNamingRelationKinds: {
    runtime: runtimeKindFiles,
    generator: generatorKindFiles,
  },
  filesNamingEveryRelationKind: {
    runtime: runtimeEveryKindFiles,
    generator: generatorEveryKindFiles,
  },
};

if (process.argv.includes("--json")) {
  console.log(JSON.stringify(figures, null, 2));
} else {
  console.log(`runtime files                 ${figures.runtimeFiles}`);
  console.log(`largest file                  ${figures.largestFile.name} (${figures.largestFile.lines} lines)`);
  console.log(`files over 400 lines          ${figures.filesOver400.length}`);
  for (const file of figures.filesOver400) console.log(`  ${file.name} ${file.lines}`);
  console.log(`largest function              ${figures.largestFunction.name} (${figures.largestFunction.lines} lines)`);
  console.log(`functions over 60 lines       ${figures.functionsOver60.length}`);
  for (const fn of figures.functionsOver60) console.log(`  ${fn.name} ${fn.lines}`);
  console.log(`any                           ${figures.any}`);
  console.log(`casts (as, <T>)               ${figures.casts}`);
  console.log(`dialect branches off drivers  ${dialectBranches.length}`);
  for (const branch of dialectBranches) console.log(`  ${branch}`);
  console.log(
    `files naming relation kinds   runtime ${runtimeKindFiles.length}, generator ${generatorKindFiles.length}`,
  );
  if (process.argv.includes("--kinds"))
    for (const file of [...runtimeKindFiles, ...generatorKindFiles]) console.log(`  ${file}`);
  console.log(
    `files naming every kind       runtime ${runtimeEveryKindFiles.length}, generator ${generatorEveryKindFiles.length}`,
  );
  if (process.argv.includes("--kinds"))
    for (const file of [...runtimeEveryKindFiles, ...generatorEveryKindFiles]) console.log(`  ${file}`);
}
