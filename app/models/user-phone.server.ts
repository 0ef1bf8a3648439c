// One's own phone number for the camp sheet (users.phone): entered on /account by everyone, by
// admins with the helper checks on /account/{id}.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { db } from "~/services/db.server";

export function getOwnPhone(userId: number) {
  return db.select({ phone: users.phone }).from(users).where(eq(users.id, userId)).get()?.phone ?? null;
}

/** Stores the number; an empty one clears it. */
export function setOwnPhone(userId: number, phone: string) {
  db.update(users).set({ phone: phone || null }).where(eq(users.id, userId)).run();
}
