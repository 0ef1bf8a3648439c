// Reading sent mails as a person would: decoded subject, recipients and text.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";

export type ParsedMail = { to: string[]; subject: string; text: string; file?: string };

export async function parseMail(raw: string | Buffer): Promise<ParsedMail> {
  const mail = await simpleParser(raw);
  const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address ?? ""));
  return { to, subject: mail.subject ?? "", text: mail.text ?? "" };
}

/** Every .eml file in `mailDir`, oldest first, parsed. */
export async function readMailDir(mailDir: string): Promise<ParsedMail[]> {
  if (!existsSync(mailDir)) return [];
  const files = readdirSync(mailDir).filter((f) => f.endsWith(".eml")).sort();
  return Promise.all(files.map(async (file) => ({ ...(await parseMail(readFileSync(path.join(mailDir, file)))), file })));
}
