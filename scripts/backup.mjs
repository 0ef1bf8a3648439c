// `npm run backup -- DIR`: a consistent copy of the database and the uploads, with a manifest.
import { backup } from "./backup-lib.mjs";

const target = process.argv[2];
if (!target) {
  console.error("Bitte einen Zielordner angeben: npm run backup -- /pfad/zur/sicherung");
  process.exit(2);
}
try {
  const manifest = await backup(target);
  console.log(`Sicherung in ${target}: ${manifest.files.length} Dateien, ${manifest.createdAt}`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
