// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { defaultDatabaseUrl } from "../lib/database.js";
import { runMigrateCommand } from "../lib/migrate-command.js";
import { migrationsPath } from "../lib/migrations.js";
import { loadEnvironment, settingSource } from "../lib/project-files.js";

// npm run db:migrate | db:status | db:resolve (see src/lib/migrate-command.ts).
const fromEnvFile = loadEnvironment(import.meta.url);
process.exitCode = await runMigrateCommand(
  process.argv.slice(2),
  process.env.DATABASE_URL ?? defaultDatabaseUrl,
  migrationsPath(import.meta.url),
  settingSource("DATABASE_URL", fromEnvFile),
);
