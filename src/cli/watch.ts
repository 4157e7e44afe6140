import { watch } from "node:fs";
import { HashapiError } from "../errors.js";
import { warmSchemaEngine } from "../migrate/schema-engine.js";
import type { ExitCode } from "./exit-code.js";

/**
 * Saving a file fires several events within a millisecond or two (an editor's truncate and write,
 * or its write and rename): one regeneration per burst. Each millisecond here is one more between a
 * save and the dev server serving it; a run that still read a half-saved spec is followed by another.
 */
const settleMs = 40;

/**
 * `generate --watch`: runs once, then again after every change in the specs folder, until Ctrl-C.
 * A spec error is printed and the watch goes on (the next save may fix it); a run never overlaps
 * another, and changes made during one start the next.
 */
export async function watchSpecs(specsDir: string, run: () => Promise<ExitCode>): Promise<ExitCode> {
  const once = async () => {
    try {
      await run();
    } catch (error) {
      if (!(error instanceof HashapiError)) throw error;
      process.stderr.write(`${error.message}\n`);
    }
  };
  await once();
  // The first save after this one should not wait for the schema engine to compile (≈ 0.1–0.3 s).
  void warmSchemaEngine();
  let running: Promise<void> | undefined;
  let pending = false;
  let timer: NodeJS.Timeout | undefined;
  const trigger = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (running) {
        pending = true;
        return;
      }
      running = (async () => {
        do {
          pending = false;
          process.stdout.write(`\n[${new Date().toTimeString().slice(0, 8)}] ${specsDir} changed: generating\n`);
          await once();
        } while (pending);
        running = undefined;
        process.stdout.write(`Watching ${specsDir} (Ctrl-C to stop)\n`);
      })();
    }, settleMs);
  };
  const watcher = watch(specsDir, trigger);
  process.stdout.write(`Watching ${specsDir} (Ctrl-C to stop)\n`);
  return new Promise((resolve) => {
    const stop = () => {
      watcher.close();
      clearTimeout(timer);
      resolve(0);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
