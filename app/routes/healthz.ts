import { checkDatabase } from "~/services/db.server";

export function loader() {
  try {
    checkDatabase();
    return new Response("ok", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  } catch {
    return new Response("Datenbank nicht erreichbar", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
}
