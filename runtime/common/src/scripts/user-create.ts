// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { defaultDatabaseUrl } from "../lib/database.js";
import { loadEnvironment, settingSource } from "../lib/project-files.js";
import { runUserCreateCommand } from "../lib/user-create.js";

// npm run user:create -- --name <name> --email <email> --password <password> (src/lib/user-create.ts).
const fromEnvFile = loadEnvironment(import.meta.url);
process.exitCode = await runUserCreateCommand(
  process.argv.slice(2),
  process.env.DATABASE_URL ?? defaultDatabaseUrl,
  settingSource("DATABASE_URL", fromEnvFile),
);
