// Runs a build step to completion, showing its output only when it fails.
import { spawn } from "node:child_process";

export function runCommand(command, args, { cwd, env = {} }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolve(output);
      else reject(new Error(`\`${[command, ...args].join(" ")}\` in ${cwd} failed (${signal ?? `exit ${code}`}):\n${output}`));
    });
  });
}
