// `npm start`: builds the app when there is no production build of the sources as they are
// (scripts/build-state.mjs), then serves it (server.mjs migrates the database at start).
import { buildForStart } from "./build-state.mjs";

process.env.NODE_ENV ??= "production";

if (!buildForStart()) process.exit(1);

await import("../server.mjs");
