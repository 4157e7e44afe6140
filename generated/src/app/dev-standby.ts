// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { pathToFileURL } from "node:url";
import { sendIfConnected } from "../base/ipc.js";

/*
 * A server process of `npm run dev` (see dev-server.ts), started before it is needed: it loads the
 * project's dependencies now, which is most of a start, and imports the project's own modules only
 * when told to, so that it runs the sources as they are at that moment.
 */

// What every generated project imports at start-up from node_modules (the database driver it does
// not use is simply not installed). These never change while `npm run dev` runs.
const dependencies = [
  "express",
  "ajv",
  "ajv-formats",
  "pino",
  "better-sqlite3",
  "pg",
  "@prisma/client/runtime/client",
];

await Promise.all(dependencies.map((name) => import(name).catch(() => undefined)));

// The runner went away (stopped, or killed): a standby never outlives it.
process.on("disconnect", () => process.exit(0));
process.once("message", (entry: unknown) => {
  if (typeof entry === "string") void import(pathToFileURL(entry).href);
});
sendIfConnected(process, "ready");
