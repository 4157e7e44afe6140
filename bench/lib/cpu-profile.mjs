// The top costs in a V8 CPU profile (node --cpu-prof): self time per function, and per package
// (node_modules/<name>, node: internals, the project's own files), as shares of the samples.
import { readFileSync } from "node:fs";

function place(url) {
  if (!url) return "(native/V8)";
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module) return module[1];
  if (url.startsWith("node:")) return "node: internals";
  return url.replace(/^file:\/\//, "").replace(/^.*\/(dist|bench)\//, "$1/");
}

export function summariseProfile(path, top = 15) {
  const profile = JSON.parse(readFileSync(path, "utf8"));
  const selfSamples = new Map();
  for (const id of profile.samples) selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);
  const total = profile.samples.length;
  const byFunction = new Map();
  const byPlace = new Map();
  for (const node of profile.nodes) {
    const samples = selfSamples.get(node.id) ?? 0;
    if (samples === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = place(url);
    const key = `${functionName || "(anonymous)"}  ${where}${url ? `:${lineNumber + 1}` : ""}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + samples);
    const group = functionName === "(idle)" || functionName === "(garbage collector)" || functionName === "(program)" ? functionName : where;
    byPlace.set(group, (byPlace.get(group) ?? 0) + samples);
  }
  const share = (entries) => [...entries].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, samples]) => ({ name, percent: Math.round((samples / total) * 1000) / 10 }));
  return { samples: total, functions: share(byFunction), places: share(byPlace) };
}
