// What the server does once at start, before it accepts requests.
import { deleteOldLoginAttempts } from "~/models/auth.server";
import { deleteOldSubmissions } from "~/models/form-submission.server";
import { ensureInitialAdmin } from "~/models/user.server";
import { closeDatabase, db } from "./db.server";
import { settings } from "./env.server";
import { startMailWorker, stopMailWorker } from "./mail.server";
import { deleteExpiredSessions } from "./session.server";
import { cleanTempUploads } from "./uploads.server";

let maintenance: NodeJS.Timeout | undefined;

export async function boot() {
  const config = settings(); // throws a SettingsError naming every bad setting
  db.run("select 1"); // opens and migrates the database
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
  const tidyUp = () => {
    deleteExpiredSessions();
    deleteOldLoginAttempts();
    deleteOldSubmissions();
  };
  tidyUp();
  maintenance ??= setInterval(tidyUp, 3600_000);
  maintenance.unref();
  return config;
}

export async function shutdown() {
  if (maintenance) clearInterval(maintenance);
  maintenance = undefined;
  await stopMailWorker();
  closeDatabase();
}
