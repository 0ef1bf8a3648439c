// `npm run restore -- DIR`: puts a backup back (the app must not run); checks the manifest and
// the database's integrity first.
import { restore } from "./backup-lib.mjs";

const source = process.argv[2];
if (!source) {
  console.error("Bitte den Ordner der Sicherung angeben: npm run restore -- /pfad/zur/sicherung");
  process.exit(2);
}
try {
  const manifest = restore(source);
  console.log(`Wiederhergestellt: ${manifest.files.length} Dateien der Sicherung vom ${manifest.createdAt}`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
