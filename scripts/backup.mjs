// `npm run backup -- DIR`: a consistent copy of the database and the uploads, with a manifest.
import path from "node:path";
import { backup, describeBackup, inGerman, paths } from "./backup-lib.mjs";

// A relative folder is the caller's: npm runs scripts in the project's folder, and says where it
// was called from in INIT_CWD (operations probe: "../sicherung" landed two folders off).
const target = process.argv[2] ? path.resolve(process.env.INIT_CWD || process.cwd(), process.argv[2]) : "";
if (!target) {
  console.error("Bitte einen Zielordner angeben: npm run backup -- /pfad/zur/sicherung");
  process.exit(2);
}
try {
  const manifest = await backup(target);
  const { databasePath, uploadsDir } = paths();
  console.log(`Gesichert: ${databasePath} und ${uploadsDir} nach ${target} (${describeBackup(manifest)}).`);
} catch (error) {
  console.error(inGerman(error));
  process.exit(1);
}
