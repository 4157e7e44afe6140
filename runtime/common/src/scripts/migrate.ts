// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { defaultDatabaseUrl } from "../db/database.js";
import { runMigrateCommand } from "../app/migrate-command.js";
import { migrationsPath } from "../db/migrations.js";
import { loadEnvironment, settingSource } from "../base/project-files.js";

// npm run db:migrate | db:status | db:resolve (see src/app/migrate-command.ts).
// Behind a pooler in transaction mode, migrations take a session's advisory lock and run DDL in
// one transaction on one connection: DIRECT_DATABASE_URL, when set, is the server itself.
const fromEnvFile = loadEnvironment(import.meta.url);
const direct = process.env.DIRECT_DATABASE_URL || undefined;
process.exitCode = await runMigrateCommand(
  process.argv.slice(2),
  direct ?? process.env.DATABASE_URL ?? defaultDatabaseUrl,
  migrationsPath(import.meta.url),
  settingSource(direct ? "DIRECT_DATABASE_URL" : "DATABASE_URL", fromEnvFile),
);
