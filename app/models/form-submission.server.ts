// One-time keys of forms that create something: a repeated submission finds the first result.
import { and, eq, lt } from "drizzle-orm";
import { formSubmissions } from "../../db/schema";
import { db, type Queryable } from "~/services/db.server";

const KEY = /^[\w-]{16,64}$/;

/** The key a form sent, or null when it is missing or malformed (then nothing is remembered). */
export function submissionKeyOf(formData: FormData) {
  const key = formData.get("submissionKey");
  return typeof key === "string" && KEY.test(key) ? key : null;
}

/** Where an earlier submission with this key led, or null. */
export function earlierSubmission(database: Queryable, key: string | null, userId: number) {
  if (!key) return null;
  return (
    database
      .select({ path: formSubmissions.resultPath })
      .from(formSubmissions)
      .where(and(eq(formSubmissions.key, key), eq(formSubmissions.userId, userId)))
      .get()?.path ?? null
  );
}

export function recordSubmission(database: Queryable, key: string | null, userId: number, resultPath: string) {
  if (!key) return;
  database.insert(formSubmissions).values({ key, userId, resultPath }).onConflictDoNothing().run();
}

/** Keys older than a day protect nothing any more. */
export function deleteOldSubmissions(now = new Date()) {
  return db.delete(formSubmissions).where(lt(formSubmissions.createdAt, new Date(now.getTime() - 24 * 3600_000))).run().changes;
}
