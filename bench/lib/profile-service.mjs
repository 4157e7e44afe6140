// --profile: where a server (the service unless --profile-server names another) spends its CPU,
// per endpoint. One server alone, under the same
// load as in the comparison, with V8's sampling profiler (node --cpu-prof, written at exit); the
// profiler's overhead is why this is a separate mode and not part of the measured runs.
import { copyFileSync, readdirSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { summariseProfile } from "./cpu-profile.mjs";
import { login } from "./http-client.mjs";
import { measure } from "./load.mjs";
import { removeDatabase } from "./prepare-project.mjs";
import { stopProcess } from "./processes.mjs";
import { endpoint, endpointLabels } from "./scenarios.mjs";
import { admin, resetWrites } from "./seed.mjs";
import { startServer } from "./servers.mjs";

export async function profileService({ options, projectDir, scratch, seededPath, seeded, log }) {
  const profiles = [];
  const databasePath = join(scratch, "profile-service.db");
  for (const id of options.endpoints) {
    const profileDir = join(scratch, "profiles", id);
    await rm(profileDir, { recursive: true, force: true });
    await mkdir(profileDir, { recursive: true });
    await removeDatabase(databasePath);
    copyFileSync(seededPath, databasePath);
    const server = await startServer(options.profileServer, { projectDir, databasePath, nodeArgs: ["--cpu-prof", "--cpu-prof-dir", profileDir] });
    let figures;
    try {
      const token = await login(server.baseUrl, admin);
      log(`profiling ${options.profileServer}: ${endpointLabels[id]}`);
      figures = await measure({ baseUrl: server.baseUrl, pid: server.pid, endpoint: endpoint(id, { seeded, token }), connections: options.connections, warmupSeconds: options.warmup, seconds: options.duration });
    } finally {
      await stopProcess(server.handle);
    }
    const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
    if (!file) throw new Error(`${options.profileServer} wrote no CPU profile into ${profileDir}`);
    profiles.push({ id, label: endpointLabels[id], requestsPerSecond: figures.requestsPerSecond, file: join(profileDir, file), ...summariseProfile(join(profileDir, file)) });
    resetWrites(databasePath, seeded);
  }
  return profiles;
}

export function profileReport(profiles) {
  return profiles
    .map((profile) => {
      const lines = [`${profile.label}: ${Math.round(profile.requestsPerSecond)} req/s under the profiler, ${profile.samples} samples (${profile.file})`, "  self time by package:"];
      for (const place of profile.places.slice(0, 10)) lines.push(`    ${place.percent.toFixed(1).padStart(5)}%  ${place.name}`);
      lines.push("  self time by function:");
      for (const fn of profile.functions.slice(0, 12)) lines.push(`    ${fn.percent.toFixed(1).padStart(5)}%  ${fn.name}`);
      return lines.join("\n");
    })
    .join("\n\n");
}
