import { SpecError } from "../errors.js";
import type { ExitCode } from "./exit-code.js";

/**
 * `--json`: one JSON document on stdout, also for invalid specs (`{ "valid": false, "problems":
 * [...] }`, exit 1), so a CI tool never parses prose. Other errors stay messages on stderr.
 */
export async function asJson<T>(work: () => Promise<T>, describe: (result: T) => object & { exitCode?: ExitCode }): Promise<ExitCode> {
  let result: T;
  try {
    result = await work();
  } catch (error) {
    if (!(error instanceof SpecError)) throw error;
    process.stdout.write(`${JSON.stringify({ valid: false, problems: error.details }, null, 2)}\n`);
    return 1;
  }
  const { exitCode = 0, ...document } = describe(result);
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  return exitCode;
}
