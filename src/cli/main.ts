import { Command, CommanderError } from "commander";
import { HashapiError } from "../errors.js";
import { registerAddResource } from "./commands/add-resource.js";
import { registerGenerate } from "./commands/generate.js";
import { registerInit } from "./commands/init.js";
import { registerMigrate } from "./commands/migrate.js";
import { registerValidate } from "./commands/validate.js";
import { styleFor } from "./style.js";
import { version } from "./version.js";

export type { ExitCode } from "./exit-code.js";
import type { ExitCode } from "./exit-code.js";

/** Runs the CLI and returns the exit code; the bin script sets it. Never throws. */
export async function run(argv: string[]): Promise<ExitCode> {
  // `hashapi … | head` closes the pipe early: that is the reader's choice, not an error to report.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
  let exitCode: ExitCode = 0;
  const program = new Command("hashapi")
    .description("Generate a complete Express + Prisma JSON API from one YAML file per resource.")
    .version(version, "-v, --version")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
    });
  const setExit = (code: ExitCode) => {
    exitCode = code;
  };
  registerGenerate(program, setExit);
  registerValidate(program, setExit);
  registerAddResource(program, setExit);
  registerInit(program, setExit);
  registerMigrate(program, setExit);
  for (const command of program.commands) command.exitOverride();

  try {
    await program.parseAsync(argv, { from: "user" });
    if (argv.length === 0) {
      program.outputHelp();
      return 2;
    }
    return exitCode;
  } catch (error) {
    return handleError(error);
  }
}

function handleError(error: unknown): ExitCode {
  if (error instanceof CommanderError) {
    // Help and version output exit 0; every other commander error is a usage error it already printed.
    return error.exitCode === 0 || error.code === "commander.helpDisplayed" || error.code === "commander.version" ? 0 : 2;
  }
  if (error instanceof HashapiError) {
    process.stderr.write(`${styleFor(process.stderr).red(error.message)}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`hashapi crashed; this is a bug, please report it with the output below.\n${message}\n`);
  return 1;
}
