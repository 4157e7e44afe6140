// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * Builds the admin (`npm run build` runs it): admin/src bundled by esbuild into dist/admin-ui
 * (app.js, app.css, index.html), each with a gzipped copy the service sends to browsers that take
 * it. The files stand alone: a CDN may serve them instead, in front of the same API (build with
 * ADMIN_API_URL=https://api.example.com, and list the CDN's origin in the API's CORS_ORIGINS).
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const out = here("../dist/admin-ui/");
await mkdir(out, { recursive: true });
await build({
  entryPoints: { app: here("src/main.tsx") },
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2022",
  jsx: "automatic",
  jsxImportSource: "preact",
  outdir: out,
  legalComments: "none",
  logLevel: "warning",
});
// Pages served from another origin (a CDN) name the API's in the page: ADMIN_API_URL at build time.
const page = await readFile(here("src/index.html"), "utf8");
const api = process.env.ADMIN_API_URL ? new URL(process.env.ADMIN_API_URL).origin : undefined;
const meta = api ? `    <meta name="hashapi-api" content="${api}" />\n` : "";
await writeFile(`${out}index.html`, page.replace("  </head>", `${meta}  </head>`));
for (const name of ["app.js", "app.css"])
  await writeFile(`${out}${name}.gz`, gzipSync(await readFile(`${out}${name}`), { level: 9 }));
