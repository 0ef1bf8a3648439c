// Jobs that run on their own in the server process: offers that run out, the hourly tidy-up,
// and what later issues add (helper-check reminders, data minimisation). Every deadline lives in
// the database; a job only asks "what is due now?", so a restart or a missed minute loses
// nothing. A failing job is logged and tried again at its next turn.

export type Job = { name: string; everyMs: number; run: (now: Date) => unknown };

const jobs: Job[] = [];
const timers = new Map<string, NodeJS.Timeout>();
const lastRun = new Map<string, Date>();

/** Adds a job; it runs at start and then every `everyMs`. */
export function registerJob(job: Job) {
  if (jobs.some((j) => j.name === job.name)) return;
  jobs.push(job);
  if (timers.size) start(job);
}

function runJob(job: Job) {
  const now = new Date();
  try {
    job.run(now);
    lastRun.set(job.name, now);
  } catch (error) {
    console.error(`Aufgabe „${job.name}“ fehlgeschlagen:`, error);
  }
}

function start(job: Job) {
  runJob(job);
  const timer = setInterval(() => runJob(job), job.everyMs);
  timer.unref();
  timers.set(job.name, timer);
}

export function startScheduler() {
  if (timers.size) return;
  for (const job of jobs) start(job);
}

export function stopScheduler() {
  for (const timer of timers.values()) clearInterval(timer);
  timers.clear();
}

/** When each job last ran (for the health answer). */
export function schedulerState() {
  return Object.fromEntries(jobs.map((j) => [j.name, lastRun.get(j.name)?.toISOString() ?? null]));
}
