// `npm run dev`: rebuilds on change and reloads the server build (remix dev, classic compiler).
import { spawn } from "node:child_process";
import path from "node:path";

const child = spawn(
  process.execPath,
  [path.resolve("node_modules/@remix-run/dev/dist/cli.js"), "dev", "--manual", "-c", "node server.mjs"],
  { stdio: "inherit", env: { ...process.env, NODE_ENV: "development" } },
);
child.on("exit", (code) => process.exit(code ?? 0));
