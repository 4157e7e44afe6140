import { execFileSync } from "node:child_process";
import { chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";
import { freePort, jwtSecret, repo } from "../support/service.js";

/**
 * The generated Dockerfile (issue 36 item 7), without Docker (none here): its steps run in a clean
 * copy of the project, outside this repository (so nothing resolves from its node_modules), as the
 * Dockerfile writes them: each stage a folder standing for its filesystem, COPY from the build
 * context (less .dockerignore) or an earlier stage, RUN in WORKDIR with the stage's ENV, then CMD as
 * the image's unprivileged user (`node` there; this machine's `postgres` account here). The started
 * service must answer ready, and the HEALTHCHECK command must say so. A PostgreSQL project: its
 * dependencies need no native build, which keeps the two `npm ci` runs short.
 */

interface Stage {
  root: string;
  workdir: string;
  env: Record<string, string>;
  user?: string;
  cmd?: string[];
  healthcheck?: string[];
}

/** The local account standing for the image's `node` user: unprivileged, as in the image. */
function imageUser(): { uid: number; gid: number; name: string } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
  return { uid: id("-u"), gid: id("-g"), name: "postgres" };
}

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [op, ...rest] = line.split(/\s+/);
      return { op: op!.toUpperCase(), args: line.slice(op!.length).trim() };
    });
}

/**
 * The context as `docker build` sends it: .dockerignore's patterns left out, each matched as Docker
 * matches it, against the path from the context's root (`data` is the root's data/, not src/data/;
 * `*` stays within one folder), with `!` patterns keeping what they name.
 */
function copyContext(project: string, into: string): void {
  const patterns = readFileSync(join(project, ".dockerignore"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const matcher = (pattern: string) => {
    const body = pattern.replace(/^\//, "").replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*");
    return new RegExp(`^${body}(/.*)?$`);
  };
  const ignored = patterns.filter((pattern) => !pattern.startsWith("!")).map(matcher);
  const kept = patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => matcher(pattern.slice(1)));
  const skip = (path: string) => path !== "" && ignored.some((rule) => rule.test(path)) && !kept.some((rule) => rule.test(path));
  cpSync(project, into, { recursive: true, filter: (source) => !skip(relative(project, source)) });
}

describe.skipIf(!postgresBinDir() && !process.env.CI)("the generated Dockerfile, step by step", () => {
  const scratch = mkdtempSync(join(tmpdir(), "hashapi-docker-"));
  let postgres: PostgresServer | undefined;
  let service: ReturnType<typeof execa> | undefined;

  afterAll(async () => {
    service?.kill("SIGTERM");
    await service?.catch(() => undefined);
    await postgres?.destroy();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("builds in two stages, runs node as an unprivileged user, and answers ready (the HEALTHCHECK passes)", async () => {
    const user = imageUser();
    if (user) chownSync(scratch, user.uid, user.gid);
    // The project as a user has it: generated, and its lock file made once (`npm install`).
    const specs = join(scratch, "specs");
    cpSync(join(repo, "specs"), specs, { recursive: true });
    const projectFile = join(specs, "hashapi.yaml");
    execFileSync("sed", ["-i", "s/^database: .*$/database: postgresql/", projectFile]);
    const project = join(scratch, "project");
    await execa(process.execPath, [join(repo, "bin/hashapi.js"), "generate", specs, "--out", project, "--force"], { cwd: repo });
    await execa("npm", ["install", "--package-lock-only", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: project });
    const context = join(scratch, "context");
    copyContext(project, context);
    expect(existsSync(join(context, "node_modules"))).toBe(false);

    const stages = new Map<string, Stage>();
    let stage: Stage | undefined;
    const at = (target: string) => (target.startsWith("/") ? join(stage!.root, target) : resolve(stage!.workdir, target));
    for (const { op, args } of instructions(readFileSync(join(context, "Dockerfile"), "utf8"))) {
      if (op === "FROM") {
        const name = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? `stage${stages.size}`;
        stage = { root: join(scratch, "stages", name), workdir: join(scratch, "stages", name), env: {} };
        mkdirSync(stage.root, { recursive: true });
        stages.set(name, stage);
      } else if (op === "WORKDIR") {
        stage!.workdir = at(args);
        mkdirSync(stage!.workdir, { recursive: true });
      } else if (op === "ENV") {
        for (const pair of args.split(/\s+/)) {
          const [name, value] = pair.split("=");
          stage!.env[name!] = value!;
        }
      } else if (op === "COPY") {
        const words = args.split(/\s+/);
        const from = words[0]!.startsWith("--from=") ? stages.get(words.shift()!.slice("--from=".length))! : undefined;
        const target = at(words.pop()!);
        for (const source of words) {
          const origin = from ? join(from.root, source) : join(context, source);
          const destination = target.endsWith("/") || words.length > 1 || (existsSync(target) && !source.includes(".")) ? join(target, source.split("/").pop()!) : target;
          cpSync(origin, destination, { recursive: true });
        }
      } else if (op === "RUN") {
        // The image's `node` user is this machine's unprivileged account.
        const command = user ? args.replaceAll("node:node", `${user.name}:${user.name}`) : args;
        const ran = await execa("sh", ["-c", command], { cwd: stage!.workdir, env: { ...stage!.env, npm_config_prefer_offline: "true" }, reject: false, all: true });
        expect(ran.exitCode, `RUN ${args}\n${String(ran.all).slice(-3000)}`).toBe(0);
      } else if (op === "USER") stage!.user = args;
      else if (op === "CMD") stage!.cmd = JSON.parse(args) as string[];
      else if (op === "HEALTHCHECK") stage!.healthcheck = JSON.parse(args.slice(args.indexOf("CMD") + 3).trim()) as string[];
      else if (op !== "EXPOSE") throw new Error(`an instruction this emulation does not know: ${op}`);
    }
    const runtime = stages.get("runtime")!;
    expect(runtime.user, "the image runs as an unprivileged user").toBe("node");
    expect(runtime.cmd).toEqual(["node", "dist/server.js"]);
    // Production dependencies only: no test runner in the image. (TypeScript and the Prisma CLI
    // come along: npm keeps a dev dependency that is also an optional peer of a production one,
    // here @prisma/client's, and --omit=optional would drop esbuild's binaries, which tsx needs.)
    expect(existsSync(join(runtime.workdir, "node_modules", "vitest"))).toBe(false);
    expect(existsSync(join(stages.get("build")!.workdir, "node_modules", "vitest"))).toBe(true);

    postgres = await startPostgres();
    await postgres.createDatabase("app");
    const port = await freePort();
    // HOME: npm writes its logs there, and the unprivileged user cannot write root's.
    const env = { ...runtime.env, PATH: process.env.PATH ?? "", HOME: scratch, HOST: "127.0.0.1", PORT: String(port), APP_URL: `http://127.0.0.1:${port}`, JWT_SECRET: jwtSecret, DATABASE_URL: postgres.url("app"), WEB_CONCURRENCY: "2" };
    const asUser = user ? { uid: user.uid, gid: user.gid } : {};
    // The release step a platform runs in the image before it starts the service.
    const migrated = await execa("npm", ["run", "db:migrate", "--silent"], { cwd: runtime.workdir, env, ...asUser, reject: false, all: true });
    expect(migrated.exitCode, String(migrated.all)).toBe(0);
    service = execa(runtime.cmd![0]!, runtime.cmd!.slice(1), { cwd: runtime.workdir, env, ...asUser, reject: false, all: true });
    let ready = 0;
    for (let attempt = 0; attempt < 100 && ready !== 200; attempt += 1) {
      ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then((response) => response.status, () => 0);
      if (ready !== 200) await new Promise((done) => setTimeout(done, 200));
    }
    expect(ready).toBe(200);
    const probe = await execa(runtime.healthcheck![0]!, runtime.healthcheck!.slice(1), { cwd: runtime.workdir, env, ...asUser, reject: false });
    expect(probe.exitCode, "the HEALTHCHECK command").toBe(0);
    service.kill("SIGTERM");
    expect((await service).exitCode).toBe(0);
  }, 600_000);
});
