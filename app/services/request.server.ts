import type { AppLoadContext } from "@remix-run/node";
import { clientAddressKey } from "~/lib/client-address";

/** Who is asking, for rate limits: the client address the server saw (behind a local proxy, the
 * forwarded one), an IPv6 address by its /64 (lib/client-address.ts). */
export function clientKey(context: AppLoadContext) {
  return typeof context.clientIp === "string" && context.clientIp ? clientAddressKey(context.clientIp) : "unbekannt";
}
