// GET /healthz: 'ok' while the database answers (for a simple uptime check); with
// `Accept: application/json` (or ?format=json) the report of app/models/health.server.ts.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { healthReport } from "~/models/health.server";

const NO_STORE = { "Cache-Control": "no-store" };

export function loader({ request }: LoaderFunctionArgs) {
  const wantsJson = (request.headers.get("Accept") ?? "").includes("application/json") || new URL(request.url).searchParams.get("format") === "json";
  try {
    const report = healthReport();
    if (wantsJson) return Response.json(report, { headers: NO_STORE });
    return new Response("ok", { headers: { "Content-Type": "text/plain; charset=utf-8", ...NO_STORE } });
  } catch {
    if (wantsJson) return Response.json({ status: "error", database: "unreachable" }, { status: 503, headers: NO_STORE });
    return new Response("Datenbank nicht erreichbar", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8", ...NO_STORE } });
  }
}
