// Jobs that run on their own in the server process: offers that run out, the hourly tidy-up,
// and what later issues add (helper-check reminders, data minimisation). Every deadline lives in
// the database; a job only asks "what is due now?", so a restart or a missed minute loses
// nothing, and each job's turn comes from its last run, noted there. A failing job is logged and
// tried again at its next turn.

import { eq } from "drizzle-orm";
import { jobRuns } from "../../db/schema";
import { db } from "./db.server";
import { logError } from "./log.server";

export type Job = { name: string; everyMs: number; run: (now: Date) => unknown };

const jobs: Job[] = [];
const timers = new Map<string, NodeJS.Timeout>();

/** Written to the database, so that every process can tell whether the jobs run. */
function noteRun(name: string, at: Date, error: unknown) {
  const lastError = error ? String(error instanceof Error ? error.message : error).slice(0, 500) : null;
  db.insert(jobRuns)
    .values({ name, lastRunAt: at, lastError })
    .onConflictDoUpdate({ target: jobRuns.name, set: { lastRunAt: at, lastError } })
    .run();
}

/** Adds a job; it runs every `everyMs`, the first time when its last run says it is due. */
export function registerJob(job: Job) {
  if (jobs.some((j) => j.name === job.name)) return;
  jobs.push(job);
  if (timers.size) start(job);
}

function runJob(job: Job) {
  const now = new Date();
  let failure: unknown = null;
  try {
    job.run(now);
  } catch (error) {
    failure = error;
    logError(error, undefined, `Aufgabe „${job.name}“ fehlgeschlagen`);
  }
  try {
    noteRun(job.name, now, failure);
  } catch (error) {
    logError(error, undefined, `Lauf der Aufgabe „${job.name}“ nicht vermerkt`);
  }
}

/**
 * How long until the job's turn, by its last run in the database: a restart does not run a daily
 * job again before its day is over (operations probe: each start of the jobs process wrote the
 * minimisation's protocol entry again). A job that never ran, failed last, or whose turn has passed, runs now.
 */
function waitFor(job: Job, now: number) {
  const last = db.select({ at: jobRuns.lastRunAt, error: jobRuns.lastError }).from(jobRuns).where(eq(jobRuns.name, job.name)).get();
  // A run that failed is tried again at the start (its cause may be what the restart fixed).
  return last && last.error === null ? Math.max(0, Math.min(job.everyMs, last.at.getTime() + job.everyMs - now)) : 0;
}

function start(job: Job) {
  const every = () => {
    const timer = setInterval(() => runJob(job), job.everyMs);
    timer.unref();
    timers.set(job.name, timer);
  };
  const wait = waitFor(job, Date.now());
  if (wait === 0) {
    runJob(job);
    every();
    return;
  }
  const first = setTimeout(() => {
    runJob(job);
    every();
  }, wait);
  first.unref();
  timers.set(job.name, first);
}

export function startScheduler() {
  if (timers.size) return;
  for (const job of jobs) start(job);
}

export function stopScheduler() {
  for (const timer of timers.values()) clearInterval(timer);
  timers.clear();
}
