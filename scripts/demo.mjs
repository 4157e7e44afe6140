#!/usr/bin/env node
// `npm start` at the repository root: generate the example clinic into generated/, migrate its
// SQLite database, make sure a demo login exists, and serve the API. Each step is idempotent.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const project = join(root, "generated");
const demoUser = { name: "Demo Admin", email: "admin@example.com", password: "change-me-please" };
const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL ?? "file:./data/app.db",
  JWT_SECRET: process.env.JWT_SECRET ?? "demo-only-secret-change-me-0123456789abcdef",
};

function step(title, command, args, options = {}) {
  process.stdout.write(`\n> ${title}\n`);
  return execFileSync(command, args, { stdio: options.capture ? "pipe" : "inherit", env, ...options });
}

step("hashapi generate specs --out generated", process.execPath, [join(root, "bin/hashapi.js"), "generate", "specs", "--out", "generated"], { cwd: root });
step("npm run build (Prisma client + TypeScript)", "npm", ["run", "build", "--silent"], { cwd: project });
step("npm run db:migrate", "npm", ["run", "db:migrate", "--silent"], { cwd: project });

const userScript = join(project, "dist/scripts/user-create.js");
try {
  const output = step(`create the demo user ${demoUser.email}`, process.execPath, [userScript, "--name", demoUser.name, "--email", demoUser.email, "--password", demoUser.password, "--role", "admin"], { cwd: project, capture: true });
  process.stdout.write(output.toString());
} catch (error) {
  const text = `${error.stdout ?? ""}${error.stderr ?? ""}`;
  if (!/already/i.test(text)) {
    process.stderr.write(text);
    process.exit(1);
  }
  process.stdout.write(`${demoUser.email} already exists.\n`);
}

// Records to look at: 25 of every resource, the first time only (an emptied database gets them again).
step("npm run db:seed -- --count 25 --if-empty", "npm", ["run", "db:seed", "--silent", "--", "--count", "25", "--if-empty"], { cwd: project });

process.stdout.write(`\nLog in with: ${demoUser.email} / ${demoUser.password}\n`);
if (!existsSync(join(project, "dist/server.js"))) process.exit(1);
const server = spawn(process.execPath, ["dist/server.js"], { cwd: project, env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
