// `npm run restore -- DIR`: puts a backup back (the app must not run); checks the manifest and
// the database's integrity first.
import path from "node:path";
import { describeBackup, inGerman, paths } from "./backup-lib.mjs";
import { restore } from "./restore-lib.mjs";

// A relative folder is the caller's: npm runs scripts in the project's folder, and says where it
// was called from in INIT_CWD (operations probe: "../sicherung" landed two folders off).
const source = process.argv[2] ? path.resolve(process.env.INIT_CWD || process.cwd(), process.argv[2]) : "";
if (!source) {
  console.error("Bitte den Ordner der Sicherung angeben: npm run restore -- /pfad/zur/sicherung");
  process.exit(2);
}
try {
  const manifest = restore(source);
  const { databasePath, uploadsDir } = paths();
  console.log(`Wiederhergestellt nach ${databasePath} und ${uploadsDir}: ${describeBackup(manifest)}.`);
  if (manifest.kept) console.log(`Die Datenbank davor liegt als ${manifest.kept} daneben.`);
  if (manifest.keptUploads) console.log(`Die Dateien davor liegen in ${manifest.keptUploads}.`);
} catch (error) {
  console.error(inGerman(error));
  process.exit(1);
}
