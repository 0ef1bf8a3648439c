// `npm start`: builds the app when there is no production build of the sources as they are
// (scripts/build-state.mjs), then serves it (server.mjs migrates the database at start).
import { buildApp, staleBuild } from "./build-state.mjs";

process.env.NODE_ENV ??= "production";

const stale = staleBuild();
if (stale) {
  console.log(`${stale} Baue die App …`);
  if (!buildApp()) process.exit(1);
}

await import("../server.mjs");
