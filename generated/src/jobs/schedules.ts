// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { Cron } from "croner";
import type { Logger } from "../base/logger.js";
import type { Sql } from "../db/sql.js";
import type { JobQueue, Schedule } from "./jobs.js";

/*
 * Schedules: every process of every instance enqueues each tick of each schedule, keyed by the
 * schedule and the tick (`schedule:<name>:<instant>`); the key is unique, so a tick is one job
 * however many processes enqueue it, and a process that starts within a minute of a tick (a
 * restart, a deploy) enqueues that tick too. Ticks missed while no process ran are not run later.
 */

export interface Schedules {
  stop(): void;
}

// A timer is never set further ahead than this: a clock that jumps (or a machine that slept) is
// seen within a minute.
const longestWaitMs = 60_000;
// A tick this recent is enqueued by a process that starts after it.
const catchUpMs = 60_000;

export function startSchedules(sql: Sql, queue: JobQueue, logger: Logger): Schedules {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  for (const schedule of queue.schedules) {
    const cron = new Cron(schedule.cron, { timezone: schedule.timezone });
    const enqueue = (tick: Date) =>
      sql
        .transaction((tx) =>
          queue.enqueue(tx, schedule.job, schedule.payload ?? null, {
            key: `schedule:${schedule.name}:${tick.toISOString()}`,
            runAt: tick,
          }),
        )
        .catch((error: unknown) =>
          logger.warn(
            { err: error, schedule: schedule.name, tick },
            "a schedule's tick could not be enqueued; the next process to reach it will",
          ),
        );
    const recent = cron.previousRuns(1, new Date())[0];
    if (recent !== undefined && Date.now() - recent.getTime() <= catchUpMs) void enqueue(recent);
    const wait = (from: Date) => {
      if (stopped) return;
      const next = cron.nextRun(from);
      if (next === null) return;
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          if (Date.now() >= next.getTime()) {
            void enqueue(next);
            wait(next);
          } else wait(from);
        },
        Math.min(Math.max(next.getTime() - Date.now(), 0), longestWaitMs),
      );
      timer.unref();
      timers.add(timer);
    };
    wait(new Date());
  }
  return {
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
    },
  };
}

/** Whether a schedule's `cron` and `timezone` can be read: the problem, or null. */
export function scheduleProblem(schedule: Pick<Schedule, "cron" | "timezone">): string | null {
  try {
    new Cron(schedule.cron, { timezone: schedule.timezone }).nextRun();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
