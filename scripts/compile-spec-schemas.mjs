#!/usr/bin/env node
// Part of `npm run build`: compiles schema/spec.schema.json and schema/project.schema.json into
// dist/spec/spec-validators.js with ajv's standalone code, so that no run of the CLI compiles them
// again (≈ 70 ms of every `hashapi generate`). src/spec/schema-check.ts falls back to compiling them
// itself when that file is missing (tests run from the sources).
import { readFileSync, writeFileSync } from "node:fs";
import { Ajv } from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";
import { ajvOptions } from "../dist/spec/schema-options.js";

const repo = new URL("..", import.meta.url);
const schema = (name) => JSON.parse(readFileSync(new URL(`schema/${name}`, repo), "utf8"));
const ajv = new Ajv({ ...ajvOptions, code: { source: true, esm: true } });
ajv.addSchema(schema("spec.schema.json"), "resource");
ajv.addSchema(schema("project.schema.json"), "project");
const standalone = standaloneCode.default ?? standaloneCode;
// Ajv's ES module output still loads its runtime helpers (ucs2length, equal) with require(), which
// an ES module does not have: without one, the import failed and every run compiled the schemas.
const requireShim = 'import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n';
const code = standalone(ajv, { resource: "resource", project: "project" }).replace('"use strict";', "");
writeFileSync(new URL("dist/spec/spec-validators.js", repo), `${requireShim}${code}`);
