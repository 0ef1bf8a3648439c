// A parent with one child (an adult, so no guardian is needed) on the enrolment form of a priced
// camp, on a phone, the child chosen: what the browser tests of the form's ways around start from.
import type { Browser } from "playwright-core";
import { participants } from "../../db/schema";
import { db } from "~/services/db.server";
import { hydrated, phoneTab } from "./browser";
import { createEvent } from "./events";
import { createUser } from "./fixtures";

export async function parentOnEnrolmentForm(browser: Browser, options: { javaScriptEnabled: boolean; baseURL: string; title: string; password?: string }) {
  const parent = await createUser({ firstName: "Petra", lastName: "Paulsen", ...(options.password ? { password: options.password } : {}) });
  const child = db
    .insert(participants)
    .values({ userId: parent.id, firstName: "Lotta", lastName: "Paulsen", street: "Strandweg 3", city: "Eutin", birthDate: "2005-04-01" })
    .returning()
    .get();
  const camp = createEvent({ title: `${options.title} ${options.javaScriptEnabled ? "A" : "B"} ${Date.now()}`, priceCents: 9900, inDays: 40 });
  const tab = await phoneTab(browser, { javaScriptEnabled: options.javaScriptEnabled, baseURL: options.baseURL, userId: parent.id });
  await tab.page.goto(`/enroll/${camp.id}`);
  if (options.javaScriptEnabled) await hydrated(tab.page);
  await tab.page.getByLabel("Kind*").selectOption(String(child.id));
  return { ...tab, parent, child, camp };
}
