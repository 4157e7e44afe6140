// `generate --watch`, warm: how long from saving one spec (a new nullable field, so each save is a
// schema change with its migration) to the regenerated files and migration being written. The
// watcher's own settle time is included, as a user waits for it too. One process for every save.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Saves `saves` changes of one spec under `specs` and returns each save's milliseconds, in order. */
export async function watchTimings({ cli, specs, out, saves = 5, timeoutMs = 60_000 }) {
  const child = spawn(process.execPath, [cli, "generate", specs, "--out", out, "--watch"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const runs = () => (output.match(/Watching /g) ?? []).length;
  const waitForRuns = async (count) => {
    const deadline = Date.now() + timeoutMs;
    while (runs() < count) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`generate --watch did not finish a run:\n${output.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const spec = join(specs, readdirSync(specs).filter((name) => name !== "hashapi.yaml").sort()[0]);
  const original = readFileSync(spec, "utf8");
  const timings = [];
  try {
    await waitForRuns(1);
    for (let save = 0; save < saves; save += 1) {
      const fields = Array.from({ length: save + 1 }, (_, index) => `  bench_note_${index}: { type: string, max: 40, nullable: true }\n`).join("");
      const started = performance.now();
      writeFileSync(spec, original.replace(/^fields:\n/m, `fields:\n${fields}`));
      await waitForRuns(save + 2);
      timings.push(performance.now() - started);
    }
    const migrations = (output.match(/New migration /g) ?? []).length;
    if (migrations !== saves) throw new Error(`generate --watch wrote ${migrations} migrations for ${saves} saves:\n${output.slice(-2000)}`);
  } finally {
    child.kill("SIGINT");
    writeFileSync(spec, original);
  }
  return timings;
}
