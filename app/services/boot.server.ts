// What the server does once at start, before it accepts requests.
import { rmSync, writeFileSync } from "node:fs";
import { deleteOldLoginAttempts } from "~/models/auth.server";
import { deleteOldSubmissions } from "~/models/form-submission.server";
import { ensureInitialAdmin } from "~/models/user.server";
import { runRetention } from "~/models/retention.server";
import { expireOffers } from "~/models/waiting-list.server";
import { purgeOldHelperChecks, sendHelperCheckReminders } from "~/models/helper-check.server";
import { closeDatabase, db } from "./db.server";
import { settings } from "./env.server";
import { startMailWorker, stopMailWorker } from "./mail.server";
import { registerJob, startScheduler, stopScheduler } from "./scheduler.server";
import { deleteExpiredSessions } from "./session.server";
import { cleanTempUploads } from "./uploads.server";

/**
 * `background: false` (the extra workers of a cluster, server.mjs): settings and database only;
 * the start-up work, the mail worker and the scheduler run in one process alone.
 */
export async function boot(options: { background?: boolean } = {}) {
  const config = settings(); // throws a SettingsError naming every bad setting
  db.run("select 1"); // opens and migrates the database
  if (options.background === false) return config;
  // `npm run restore` refuses while a process of the app holds the database.
  writeFileSync(`${config.databasePath}.pid`, String(process.pid));
  // Upload folders writable, and no temporary file left by an upload cut off (crash, shutdown).
  await cleanTempUploads();
  const admin = await ensureInitialAdmin({ email: config.adminEmail, password: config.adminPassword });
  if (admin) {
    console.log(`Erster Admin angelegt: ${admin.email}`);
    if (admin.generatedPassword) {
      console.log(`Passwort (wird nur dieses eine Mal angezeigt): ${admin.generatedPassword}`);
    }
  }
  startMailWorker();
  registerJob({
    name: "aufräumen",
    everyMs: 3600_000,
    run: () => {
      deleteExpiredSessions();
      deleteOldLoginAttempts();
      deleteOldSubmissions();
    },
  });
  // Places offered to the waiting list and not taken in time go to the next in line.
  registerJob({ name: "platzangebote", everyMs: 60_000, run: (now) => expireOffers(now) });
  // Children's data only as long as needed (DECISIONS.md); idempotent, so running daily is enough.
  registerJob({ name: "datensparsamkeit", everyMs: 24 * 3600_000, run: (now) => runRetention(now) });
  // The lead persons' mail about missing helper checks, 30 days before each event (once per event);
  // check records of people whose last event as a helper ended three months ago are deleted.
  registerJob({
    name: "helfer-nachweise",
    everyMs: 3600_000,
    run: (now) => {
      sendHelperCheckReminders(now);
      purgeOldHelperChecks(now);
    },
  });
  startScheduler();
  return config;
}

export async function shutdown() {
  stopScheduler();
  await stopMailWorker();
  rmSync(`${settings().databasePath}.pid`, { force: true });
  closeDatabase();
}
