// Issue 9, item 10: a refused sign-up never sends the typed password back into the page.
import { beforeEach, expect, it } from "vitest";
import { action as signupAction } from "~/routes/signup";
import { createUser, resetDatabase } from "../support/fixtures";
import { post, run } from "../support/remix";

beforeEach(() => resetDatabase());

it("answers a taken address without the password in the page", async () => {
  await createUser({ email: "vergeben@example.org" });
  const password = "Geheim-Passwort-77!";
  const response = await run(signupAction, post("/signup", { firstName: "Eva", lastName: "Muster", email: "vergeben@example.org", password, passwordRepeat: password }));
  expect(response.status).toBe(409);
  const text = await response.text();
  expect(text).toContain("vergeben@example.org");
  expect(text).not.toContain(password);
});

it("answers invalid input without the password in the page", async () => {
  const password = "Geheim-Passwort-77!";
  const response = await run(signupAction, post("/signup", { firstName: "", lastName: "Muster", email: "eva@example.org", password, passwordRepeat: password }));
  expect(response.status).toBe(400);
  expect(await response.text()).not.toContain(password);
});
