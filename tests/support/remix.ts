// Calling loaders and actions the way Remix does, with real Requests.
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { desc } from "drizzle-orm";
import { mailOutbox } from "../../db/schema";
import { db } from "~/services/db.server";

type Options = { cookie?: string; params?: Record<string, string>; context?: AppLoadContext };

export function post(url: string, form: Record<string, string> | URLSearchParams, options: Options = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (options.cookie) headers.Cookie = options.cookie;
  return {
    request: new Request(`http://localhost${url}`, { method: "POST", headers, body: new URLSearchParams(form).toString() }),
    params: options.params ?? {},
    context: options.context ?? {},
  } satisfies ActionFunctionArgs;
}

export function get(url: string, options: Options = {}) {
  return {
    request: new Request(`http://localhost${url}`, { headers: options.cookie ? { Cookie: options.cookie } : {} }),
    params: options.params ?? {},
    context: options.context ?? {},
  } satisfies LoaderFunctionArgs;
}

/** Runs a loader or action; a thrown Response (redirect, 404) is returned like a returned one. */
export async function run(fn: (args: never) => unknown, args: unknown): Promise<Response> {
  try {
    const result = await fn(args as never);
    if (result instanceof Response) return result;
    return new Response(JSON.stringify(result ?? null), { headers: { "Content-Type": "application/json" } });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export async function body<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** The cookie a response sets, as a Cookie request header value. */
export function cookieFrom(response: Response, name: string) {
  const all = response.headers.getSetCookie?.() ?? [response.headers.get("Set-Cookie") ?? ""];
  const match = all.find((c) => c.startsWith(`${name}=`));
  return match ? match.split(";")[0] : undefined;
}

/** The mails written to the outbox, newest first. */
export function outbox() {
  return db
    .select()
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.id))
    .all()
    .map((m) => ({ ...m, to: JSON.parse(m.recipients) as string[] }));
}

/** The first link to this app in a mail's text. */
export function linkIn(text: string) {
  const match = /http:\/\/localhost:3000(\/\S+)/.exec(text);
  if (!match) throw new Error(`no link in mail:\n${text}`);
  return match[1];
}
