// Command-line options of bench/service.mjs and their defaults.
import { parseArgs } from "node:util";
import { endpointIds } from "./scenarios.mjs";

export const usage = `usage: node bench/service.mjs [--duration 10] [--rounds 3] [--quick] [--json] [--skip-scaling]
       [--patients 10000] [--connections 32] [--warmup 2] [--scaling-duration 5]
       [--scaling-sizes 1000,10000,100000] [--endpoints show,list,create,update,login]
       [--profile [--profile-server service|express-ceiling|reference|peer]]
                     instead of comparing: CPU-profile one server alone (the service unless named), one run per endpoint`;

const defaults = {
  duration: 10,
  rounds: 3,
  warmup: 2,
  patients: 10_000,
  connections: 32,
  scalingSizes: [1_000, 10_000, 100_000],
  endpoints: endpointIds,
  json: false,
  skipScaling: false,
  profile: false,
  profileServer: "service",
};
const quick = { duration: 3, rounds: 1, warmup: 1, scalingDuration: 2 };

/** Options for benchService: defaults, then --quick's, then what was given explicitly. */
export function resolveOptions(given = {}) {
  const options = { ...defaults, ...(given.quick ? quick : {}), ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) };
  options.scalingDuration ??= Math.min(5, options.duration);
  const unknown = options.endpoints.filter((id) => !endpointIds.includes(id));
  if (!["service", "reference", "express-ceiling", "peer"].includes(options.profileServer)) throw new Error(`unknown --profile-server ${options.profileServer}; known: service, reference, express-ceiling, peer`);
  if (unknown.length > 0) throw new Error(`unknown endpoint(s) ${unknown.join(", ")}; known: ${endpointIds.join(", ")}`);
  for (const key of ["duration", "rounds", "patients", "connections", "scalingDuration"])
    if (!(options[key] > 0)) throw new Error(`--${key} must be a positive number`);
  return options;
}

const list = (text) => text?.split(",").map((item) => item.trim()).filter(Boolean);
const number = (text) => (text === undefined ? undefined : Number(text));

export function parseCommandLine(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: "string" },
      rounds: { type: "string" },
      quick: { type: "boolean" },
      json: { type: "boolean" },
      "skip-scaling": { type: "boolean" },
      patients: { type: "string" },
      connections: { type: "string" },
      warmup: { type: "string" },
      "scaling-duration": { type: "string" },
      "scaling-sizes": { type: "string" },
      endpoints: { type: "string" },
      profile: { type: "boolean" },
      "profile-server": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return { help: true };
  return resolveOptions({
    duration: number(values.duration),
    rounds: number(values.rounds),
    quick: values.quick,
    json: values.json,
    skipScaling: values["skip-scaling"],
    patients: number(values.patients),
    connections: number(values.connections),
    warmup: number(values.warmup),
    scalingDuration: number(values["scaling-duration"]),
    scalingSizes: list(values["scaling-sizes"])?.map(Number),
    endpoints: list(values.endpoints),
    profile: values.profile,
    profileServer: values["profile-server"],
  });
}

/** Seconds the run should take, printed before it starts. */
export function expectedSeconds(options) {
  const perRun = (seconds) => options.warmup + seconds + 1;
  if (options.profile) return Math.round(45 + options.endpoints.length * (perRun(options.duration) + 5));
  // A login backlog (one scrypt each, about 5 per second here) drains after the warm-up and the run.
  const loginDrain = options.endpoints.includes("login") ? 3 * options.rounds * 2 * (options.connections / 5) : 0;
  const main = options.endpoints.length * 3 * options.rounds * perRun(options.duration) + loginDrain;
  const scaling = options.skipScaling ? 0 : options.scalingSizes.length * (2 * 2 * perRun(options.scalingDuration) + 8);
  const preparation = 45;
  return Math.round(preparation + main + scaling);
}
