// Two contenders compared in alternating short slices (AB, BA, …), the ratio of each pair taken,
// and the median of those ratios reported: on this machine two runs of one build differ by 10–40 %,
// so figures from separate runs can move a ratio more than a change does.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

/** A timestamped progress line on stderr (tables and JSON go elsewhere). */
export const log = (text) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${text}\n`);

/**
 * The options every slicing benchmark takes (--quick, --json, --slices, --seconds) and its own
 * `extra` ones (parseArgs specs); `values` holds the extra ones as given.
 */
export function sliceArguments(argv, extra, { slices, quickSlices }) {
  const { values } = parseArgs({
    args: argv,
    options: { quick: { type: "boolean" }, json: { type: "boolean" }, slices: { type: "string" }, seconds: { type: "string" }, ...extra },
  });
  const quick = values.quick ?? false;
  return { values, json: values.json ?? false, slices: Number(values.slices ?? (quick ? quickSlices : slices)), seconds: Number(values.seconds ?? (quick ? 1 : 2)) };
}

export const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];

/** One load run of `seconds` on `url` whose requests come from next() ({ method, path, headers, body }). */
export function fire(url, next, seconds, connections = 32) {
  return autocannon({
    url,
    connections,
    duration: seconds,
    // autocannon writes Content-Length into the headers it is given: each request gets its own.
    requests: [
      {
        setupRequest: (request) => {
          const made = next();
          return { ...request, ...made, headers: { ...made.headers } };
        },
      },
    ],
  });
}

const clockTicks = 100; // USER_HZ: /proc's unit of CPU time on Linux

/** CPU seconds a process has used (user + system, every thread), or undefined where /proc is not. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return undefined;
  }
}

/**
 * contenders: [A, B], each { label, url, next, pid? }. Both are warmed up once, then `slices` pairs
 * run. Returns each one's median req/s, the median of the per-pair B/A ratios and their spread;
 * with pids, also each one's median server CPU µs a request and the median per-pair ratio of those
 * (A's over B's, so that above 1 is B cheaper, as for req/s). CPU time is what a request costs the
 * server whatever else the machine runs; req/s also moves with the load generator and neighbours.
 */
export async function alternate(contenders, { slices, seconds, connections = 32 }) {
  for (const contender of contenders) await fire(contender.url, contender.next, seconds, connections);
  const rates = [[], []];
  const costs = [[], []];
  const ratios = [];
  const costRatios = [];
  for (let slice = 0; slice < slices; slice += 1) {
    const rate = [];
    const cost = [];
    for (const index of slice % 2 === 0 ? [0, 1] : [1, 0]) {
      const { url, next, label, pid } = contenders[index];
      const before = pid === undefined ? undefined : cpuSeconds(pid);
      const result = await fire(url, next, seconds, connections);
      const after = pid === undefined ? undefined : cpuSeconds(pid);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${label} answered ${result.non2xx} non-2xx and had ${result.errors} socket errors`);
      rate[index] = result.requests.total / result.duration;
      if (before !== undefined && after !== undefined) cost[index] = ((after - before) * 1e6) / result.requests.total;
    }
    rates[0].push(rate[0]);
    rates[1].push(rate[1]);
    ratios.push(rate[1] / rate[0]);
    if (cost[0] !== undefined && cost[1] !== undefined) {
      costs[0].push(cost[0]);
      costs[1].push(cost[1]);
      costRatios.push(cost[0] / cost[1]);
    }
  }
  return {
    a: median(rates[0]),
    b: median(rates[1]),
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    pairs: ratios.length,
    ...(costRatios.length > 0
      ? {
          cpu: {
            a: median(costs[0]),
            b: median(costs[1]),
            ratio: median(costRatios),
            low: Math.min(...costRatios),
            high: Math.max(...costRatios),
            pairs: costRatios.length,
          },
        }
      : {}),
  };
}

export function describeRatio({ ratio, low, high, pairs }) {
  return `${ratio.toFixed(3)}× (median of ${pairs} pairs; ${low.toFixed(2)}–${high.toFixed(2)})`;
}
