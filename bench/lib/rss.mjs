// Resident memory of a server while it is under load: VmRSS of the process and all of its
// descendants (a clustered service is a primary plus workers), sampled, the maximum kept.
import { readFileSync } from "node:fs";

function vmRssBytes(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export function processTreeRss(pid) {
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop();
    total += vmRssBytes(next);
    pending.push(...childrenOf(next));
  }
  return total;
}

export function sampleRss(pid, intervalMs = 250) {
  let max = processTreeRss(pid);
  const timer = setInterval(() => {
    max = Math.max(max, processTreeRss(pid));
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(max, processTreeRss(pid));
    },
  };
}
