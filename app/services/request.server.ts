import type { AppLoadContext } from "@remix-run/node";

/** Who is asking, for rate limits: the client address the server saw (behind a local proxy, the
 * forwarded one). */
export function clientKey(context: AppLoadContext) {
  return typeof context.clientIp === "string" && context.clientIp ? context.clientIp : "unbekannt";
}
