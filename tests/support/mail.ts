// Reading sent mails as a person would: decoded subject, recipients and text.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";

export type ParsedMail = { to: string[]; replyTo: string[]; subject: string; text: string; file?: string };

export async function parseMail(raw: string | Buffer): Promise<ParsedMail> {
  const mail = await simpleParser(raw);
  const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address ?? ""));
  const replyTo = mail.replyTo?.value.map((v) => v.address ?? "") ?? [];
  return { to, replyTo, subject: mail.subject ?? "", text: mail.text ?? "" };
}

/** Every .eml file in `mailDir`, oldest first, parsed. */
export async function readMailDir(mailDir: string): Promise<ParsedMail[]> {
  if (!existsSync(mailDir)) return [];
  const files = readdirSync(mailDir).filter((f) => f.endsWith(".eml")).sort();
  return Promise.all(files.map(async (file) => ({ ...(await parseMail(readFileSync(path.join(mailDir, file)))), file })));
}

/** Waits until a mail to `to` whose subject matches arrives in `mailDir` (the server's worker writes it). */
export async function waitForMail(mailDir: string, to: string, subject: string | RegExp, timeoutMs = 10_000): Promise<ParsedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await readMailDir(mailDir);
    const found = mails
      .reverse()
      .find((m) => m.to.includes(to.toLowerCase()) && (typeof subject === "string" ? m.subject === subject : subject.test(m.subject)));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} with subject ${subject} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The path of the first link to the app in a mail. */
export function appPath(mail: ParsedMail, baseUrl: string) {
  const match = new RegExp(`${baseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(/\\S+)`).exec(mail.text);
  if (!match) throw new Error(`no link in mail:\n${mail.text}`);
  return match[1];
}
