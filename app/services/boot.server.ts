// What the server does once at start, before it accepts requests.
import { accessSync, constants, existsSync, rmSync, writeFileSync } from "node:fs";
import { deleteOldAddressChecks } from "~/models/address-checks.server";
import { deleteOldLoginAttempts } from "~/models/password-tries.server";
import { deleteOldSubmissions } from "~/models/form-submission.server";
import { ensureInitialAdmin } from "~/models/user.server";
import { RETENTION_JOB, runRetention } from "~/models/retention.server";
import { expireOffers } from "~/models/waiting-list.server";
import { sendPaymentMails } from "~/models/payment-mails.server";
import { purgeOldHelperChecks, sendHelperCheckReminders } from "~/models/helper-check.server";
import { closeDatabase, db } from "./db.server";
import { exampleSettingsInUse, settings } from "./env.server";
import { checkMailDir, startMailWorker, stopMailWorker } from "./mail-delivery.server";
import { registerJob, startScheduler, stopScheduler, type Job } from "./scheduler.server";
import { deleteExpiredParkedForms } from "./parked-forms.server";
import { deleteExpiredSessions } from "./session.server";
import { cleanTempUploads } from "./uploads.server";
import { logNotice } from "./log.server";
import { appFiles, processNote, takeAppLock } from "../../scripts/running-app.mjs";

/** The pid file this process wrote (the one that did the start-up work), removed at shutdown. */
let pidFile: string | undefined;
/** The app's lock on the database, held by that process for as long as it runs (scripts/running-app.mjs). */
let appLock: ReturnType<typeof takeAppLock> | undefined;

type BootOptions = {
  background?: boolean;
  startup?: boolean;
  jobs?: boolean;
  /**
   * Runs after the settings are read and before the start-up work writes anything (the server
   * checks here that its port can be opened, so that a start that cannot serve creates no
   * database and no first admin); an error it throws ends the start.
   */
  beforeWrites?: (config: ReturnType<typeof settings>) => Promise<void>;
};

/**
 * Settings and database (opened and migrated) in every process; then, by default (`background`,
 * a single process and tests), the start-up work and the jobs (mail worker and scheduler).
 * `background: false` (the HTTP workers of a cluster, server.mjs): nothing more. The cluster
 * primary takes `jobs: false` (start-up work only), its jobs process `startup: false`, so that
 * each of the two runs in one process alone.
 */
export async function boot(options: BootOptions = {}) {
  const config = settings(); // throws a SettingsError naming every bad setting
  const background = options.background !== false;
  const startup = options.startup ?? background;
  try {
    if (startup) await options.beforeWrites?.(config);
    if (startup) appLock = holdDatabase(config.databasePath);
    // The folders the app writes, before the database is made: a start that cannot serve
    // leaves nothing behind.
    if (startup) await checkFolders(config);
    openAndMigrate(config.databasePath);
    if (startup) await startUp(config);
  } catch (error) {
    undoStart();
    throw error;
  }
  if (options.jobs ?? background) startJobs();
  return config;
}

/** Upload folders writable (and no temporary file left by an upload cut off), MAIL_DIR without SMTP_URL. */
async function checkFolders(config: ReturnType<typeof settings>) {
  await cleanTempUploads();
  if (!config.smtpUrl) checkMailDir(config.mailDir);
}

/** What a start that ends with an error has taken: its pid file, the database and its lock. */
function undoStart() {
  if (pidFile) rmSync(pidFile, { force: true });
  pidFile = undefined;
  closeDatabase();
  appLock?.close();
  appLock = undefined;
}

/**
 * The app's lock on the database; another server of the app still running on it holds the lock, and
 * this start ends before it migrates or writes anything, leaving that server's pid file alone.
 */
function holdDatabase(databasePath: string) {
  const lock = takeAppLock(databasePath);
  if (lock) return lock;
  throw new Error(
    `Lagerfeuer läuft schon mit dieser Datenbank${processNote(databasePath)}, oder sie wird gerade wiederhergestellt. Zwei Server auf einer Datenbank gehen nicht: bitte den laufenden beenden oder einen anderen DATABASE_PATH wählen.`,
  );
}

/**
 * Opens and migrates the database. A file that is no SQLite database, or one the app's user may
 * not write (SQLite would open it read-only without a word, and every write would fail later), is
 * said in German here.
 */
function openAndMigrate(databasePath: string) {
  try {
    db.run("select 1");
    if (existsSync(databasePath)) accessSync(databasePath, constants.W_OK);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (!/^(?:SQLITE_(?:NOTADB|CORRUPT|READONLY|CANTOPEN|PERM)|EACCES|EROFS|EPERM)/.test(code)) throw error;
    throw new Error(
      `${databasePath} ist keine Datenbank von Lagerfeuer oder lässt sich nicht beschreiben (${code}). Stimmt DATABASE_PATH, und gehört die Datei dem Benutzer, unter dem Lagerfeuer läuft?`,
    );
  }
}

/** Once per start, before any request or job: pid file, first admin. */
async function startUp(config: ReturnType<typeof settings>) {
  // Names this process in the messages of a second start and of `npm run restore`.
  pidFile = appFiles(config.databasePath).pid;
  writeFileSync(pidFile, String(process.pid));
  const examples = exampleSettingsInUse(process.env);
  if (examples.length > 0) {
    logNotice(
      "warn",
      `Noch Beispielwerte, nicht gesetzt: ${examples.join(", ")}. Eltern sehen sie bei der Überweisung, in Mails und in der Fußzeile; vor dem echten Betrieb setzen (README, „Vor dem echten Betrieb“).`,
    );
  }
  const admin = await ensureInitialAdmin({ email: config.adminEmail, password: config.adminPassword });
  if (admin) {
    // Shown whatever LOG_LEVEL says: no one can show them again.
    logNotice("info", `Erster Admin angelegt: ${admin.email}`, {}, true);
    if (admin.generatedPassword) {
      logNotice("info", `Passwort (wird nur dieses eine Mal angezeigt): ${admin.generatedPassword}`, {}, true);
    }
  }
}

/** The scheduled jobs: each asks the database what is due now (scheduler.server.ts). */
export function scheduledJobs(): Job[] {
  return [
    {
      name: "aufräumen",
      everyMs: 3600_000,
      run: () => {
        deleteExpiredSessions();
        deleteExpiredParkedForms();
        deleteOldLoginAttempts();
        deleteOldAddressChecks();
        deleteOldSubmissions();
      },
    },
    // The "Zahlung eingegangen" mails whose ten minutes are over, one per family and event.
    { name: "zahlungsmails", everyMs: 60_000, run: (now) => sendPaymentMails(now) },
    // Places offered to the waiting list and not taken in time go to the next in line.
    { name: "platzangebote", everyMs: 60_000, run: (now) => expireOffers(now) },
    // Children's data only as long as needed (DECISIONS.md); idempotent, so running daily is enough.
    { name: RETENTION_JOB, everyMs: 24 * 3600_000, run: (now) => runRetention(now) },
    // The lead persons' mail about missing helper checks, 30 days before each event (once per
    // event); check records of people whose last event as a helper ended three months ago are deleted.
    {
      name: "helfer-nachweise",
      everyMs: 3600_000,
      run: (now) => {
        sendHelperCheckReminders(now);
        purgeOldHelperChecks(now);
      },
    },
  ];
}

/** The mail worker and the scheduled jobs of this process. */
export function startJobs() {
  startMailWorker();
  for (const job of scheduledJobs()) registerJob(job);
  startScheduler();
}

/** Stops the scheduler and lets the mail worker finish the mail under way. */
export async function stopJobs() {
  stopScheduler();
  await stopMailWorker();
}

/** Graceful end of whatever this process started: jobs, pid file, database. */
export async function shutdown() {
  await stopJobs();
  undoStart();
}
