#!/usr/bin/env node
// Part of `npm run build`: precompiles templates/*.hbs into dist/render/templates.compiled.js, so that
// no run of the CLI compiles them again (≈ 60 ms of every `hashapi generate`). Each entry carries the
// sha256 of its source: src/render/render.ts uses it only while the template is unchanged.
import { writeFileSync } from "node:fs";
import Handlebars from "handlebars";
import { sha256 } from "../dist/output/hash.js";
import { templateOptions } from "../dist/render/engine.js";
import { loadTemplates } from "../dist/render/templates.js";

const entries = (await loadTemplates()).map(
  (template) => `  ${JSON.stringify(template.path)}: { sha256: ${JSON.stringify(sha256(template.source))}, spec: ${Handlebars.precompile(template.source, templateOptions)} },`,
);
writeFileSync(new URL("../dist/render/templates.compiled.js", import.meta.url), `export default {\n${entries.join("\n")}\n};\n`);
