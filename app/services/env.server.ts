// Settings: read from the environment once, checked with zod, each with a default so that a
// fresh install runs with nothing configured. A bad value stops the start with a message that
// names the setting.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { isValidBIC, isValidIBAN, electronicFormatIBAN } from "ibantools";
import { z } from "zod";
import { isValidCreditorId, normalCreditorId } from "../lib/creditor-id";
import { errorCode } from "./folders.server";
import { LOG_LEVELS } from "./log.server";

const urlString = z
  .string()
  .trim()
  .url("muss eine vollständige URL sein, z. B. https://example.org/seite")
  .refine((value) => /^https?:\/\//.test(value), "muss mit http:// oder https:// beginnen");
const url = (fallback: string) => urlString.default(fallback);

const nonEmpty = (fallback: string) => z.string().trim().min(1, "darf nicht leer sein").default(fallback);

const optional = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const integerSetting = (fallback: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `muss eine ganze Zahl von ${min} bis ${max} sein`)
    .transform(Number)
    .pipe(z.number().min(min, `muss mindestens ${min} sein`).max(max, `darf höchstens ${max} sein`))
    .default(String(fallback));

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrSubnet(item: string) {
  if (PROXY_NAMES.has(item)) return true;
  const [address, prefix, ...rest] = item.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Which proxies in front of the app may tell the client's address and protocol
 * (X-Forwarded-For, X-Forwarded-Proto), in the form express's "trust proxy" takes: a number of
 * hops, a list of addresses and subnets (or loopback, linklocal, uniquelocal), or false.
 */
const trustProxySetting = z
  .string()
  .trim()
  .default("loopback")
  .transform((value, ctx): number | false | string[] => {
    if (value === "false") return false;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 10) return hops;
    }
    const items = value.split(",").map((item) => item.trim().toLowerCase());
    if (items.every((item) => item !== "" && isAddressOrSubnet(item))) return items;
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message:
        "muss die Zahl der Proxys (0–10), eine Liste von Adressen oder Netzen (z. B. 10.0.0.0/8,127.0.0.1), loopback oder false sein",
    });
    return z.NEVER;
  });

const hostSetting = optional.pipe(
  z
    .string()
    .refine(
      (value) => isIP(value) !== 0 || /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(value),
      "muss eine IP-Adresse oder ein Rechnername sein, z. B. 127.0.0.1, :: oder localhost",
    )
    .optional(),
);

/** A sender as mail programs take it: an address, or a name and the address in angle brackets. */
const mailFromSetting = nonEmpty("Lagerfeuer <noreply@localhost>").refine(
  (value) => /^(?:[^<>@,]*<[^\s<>@,]+@[^\s<>@,]+>|[^\s<>@,]+@[^\s<>@,]+)$/.test(value),
  "muss eine E-Mail-Adresse sein, auch mit Namen davor, z. B. Jugendverband <anmeldung@example.org>",
);

/** A word of a list, in any case. */
const oneOf = <T extends string>(words: readonly [T, ...T[]], fallback: T) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(words, { errorMap: () => ({ message: `muss eines sein von: ${words.join(", ")}` }) }))
    .default(fallback);

const settingsSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: integerSetting(3000, 1, 65535),
    HOST: hostSetting,
    TRUST_PROXY: trustProxySetting,
    SHUTDOWN_TIMEOUT_SECONDS: integerSetting(10, 0, 600),
    RETENTION_HEALTH_DAYS: integerSetting(30, 1, 3650),
    RETENTION_YEARS: integerSetting(5, 1, 30),
    RETENTION_SEPA_MONTHS: integerSetting(14, 1, 120),
    DATABASE_PATH: nonEmpty("data/lagerfeuer.db"),
    UPLOADS_DIR: nonEmpty("uploads"),
    UPLOADS_MIN_FREE_MB: integerSetting(512, 0, 100_000_000),
    MAIL_DIR: nonEmpty("data/mail"),
    SMTP_URL: optional.pipe(
      z
        .string()
        .regex(/^smtps?:\/\/[^\s]+$/, "muss mit smtp:// oder smtps:// beginnen, z. B. smtp://benutzer:passwort@mail.example.org:587")
        .optional(),
    ),
    MAIL_FROM: mailFromSetting,
    MAIL_POLL_SECONDS: integerSetting(2, 1, 3600),
    // Checked here only: the logger reads it itself (log.server.ts), before any settings are read.
    LOG_LEVEL: oneOf(LOG_LEVELS, "info"),
    PAGE_CACHE: oneOf(["on", "off"], "on"),
    // Unset: http://localhost:{PORT}, so that mail links work on a first start on any port.
    APP_URL: urlString.optional(),
    SESSION_SECRET: optional.pipe(z.string().min(32, "muss mindestens 32 Zeichen lang sein").optional()),
    SESSION_TTL_HOURS: integerSetting(168, 1, 24 * 365),
    FORM_MAX_KB: integerSetting(1024, 16, 64 * 1024),
    ADMIN_EMAIL: nonEmpty("admin@example.org").pipe(
      z.string().email("muss eine E-Mail-Adresse sein").transform((value) => value.toLowerCase()),
    ),
    ADMIN_PASSWORD: optional.pipe(
      z.string().min(8, "muss mindestens 8 Zeichen lang sein").max(72, "darf höchstens 72 Zeichen lang sein").optional(),
    ),
    LINK_CONTACT: url("https://www.example.org/kontakt"),
    LINK_DIRECTIONS: url("https://www.example.org/anfahrt"),
    LINK_FAQ: url("https://www.example.org/faq"),
    LINK_DOWNLOADS: url("https://www.example.org/downloads"),
    LINK_IMPRINT: url("https://www.example.org/impressum"),
    LINK_PRIVACY: url("https://www.example.org/datenschutz"),
    BANK_ACCOUNT_HOLDER: nonEmpty("Jugendverband e.V."),
    BANK_IBAN: nonEmpty("DE02 1203 0000 0000 2020 51")
      .transform((value) => electronicFormatIBAN(value) ?? value)
      .refine((value) => isValidIBAN(value), "ist keine gültige IBAN"),
    BANK_BIC: nonEmpty("BYLADEM1001").refine((value) => isValidBIC(value), "ist keine gültige BIC"),
    BANK_NAME: nonEmpty("Deutsche Kreditbank Berlin"),
    // The Bundesbank's example identifier; each association has its own (SEPA direct debits).
    BANK_CREDITOR_ID: nonEmpty("DE98ZZZ09999999999")
      .transform(normalCreditorId)
      .refine(isValidCreditorId, "ist keine gültige Gläubiger-Identifikationsnummer"),
  })
  .transform((raw) => ({
    nodeEnv: raw.NODE_ENV,
    port: raw.PORT,
    host: raw.HOST,
    trustProxy: raw.TRUST_PROXY,
    shutdownTimeoutSeconds: raw.SHUTDOWN_TIMEOUT_SECONDS,
    retention: { healthDays: raw.RETENTION_HEALTH_DAYS, years: raw.RETENTION_YEARS, sepaMonths: raw.RETENTION_SEPA_MONTHS },
    databasePath: path.resolve(raw.DATABASE_PATH),
    uploadsDir: path.resolve(raw.UPLOADS_DIR),
    uploadsMinFreeBytes: raw.UPLOADS_MIN_FREE_MB * 1024 * 1024,
    mailDir: path.resolve(raw.MAIL_DIR),
    smtpUrl: raw.SMTP_URL,
    mailFrom: raw.MAIL_FROM,
    mailPollMs: raw.MAIL_POLL_SECONDS * 1000,
    pageCache: raw.PAGE_CACHE === "on",
    appUrl: (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ""),
    configuredSessionSecret: raw.SESSION_SECRET,
    sessionTtlHours: raw.SESSION_TTL_HOURS,
    formMaxBytes: raw.FORM_MAX_KB * 1024,
    adminEmail: raw.ADMIN_EMAIL,
    adminPassword: raw.ADMIN_PASSWORD,
    links: {
      contact: raw.LINK_CONTACT,
      directions: raw.LINK_DIRECTIONS,
      faq: raw.LINK_FAQ,
      downloads: raw.LINK_DOWNLOADS,
      imprint: raw.LINK_IMPRINT,
      privacy: raw.LINK_PRIVACY,
    },
    bank: {
      accountHolder: raw.BANK_ACCOUNT_HOLDER,
      iban: raw.BANK_IBAN,
      bic: raw.BANK_BIC,
      name: raw.BANK_NAME,
      creditorId: raw.BANK_CREDITOR_ID,
    },
  }));

export type Settings = z.infer<typeof settingsSchema> & { sessionSecret: string };
export type FooterLinks = Settings["links"];

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Ungültige Einstellungen:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "SettingsError";
  }
}

/** Checks the given environment; throws a SettingsError naming every bad setting. */
export function parseSettings(env: Record<string, string | undefined>) {
  // An empty variable counts as unset, so that `FOO=` in a compose file keeps the default.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const result = settingsSchema.safeParse(cleaned);
  if (!result.success) {
    throw new SettingsError(
      result.error.issues.map((issue) => `${issue.path.join(".") || "?"}: ${issue.message}`),
    );
  }
  return result.data;
}

/**
 * The secret that signs the session cookie: SESSION_SECRET, or one generated at the first start
 * and kept beside the database so that sessions survive a restart.
 */
export function resolveSessionSecret(configured: string | undefined, databasePath: string) {
  if (configured) return configured;
  const dir = path.dirname(databasePath);
  const file = path.join(dir, "session-secret");
  if (existsSync(file)) return keptSecret(file);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // a data folder made here is the app user's alone: children's data
  } catch (error) {
    throw new SettingsError([
      `DATABASE_PATH: Der Ordner ${dir} lässt sich nicht anlegen (${errorCode(error)}). Stimmt DATABASE_PATH, und darf der Benutzer, unter dem Lagerfeuer läuft, dort schreiben?`,
    ]);
  }
  const secret = randomBytes(32).toString("base64url");
  // Written whole under another name and linked into place: a process starting at the same
  // moment finds either no file or the whole secret, never an empty one.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(draft, secret + "\n", { mode: 0o600, flag: "wx" });
  try {
    chmodSync(draft, 0o600);
    linkSync(draft, file);
    return secret;
  } catch (error) {
    // Another process started at the same moment and wrote it first.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return keptSecret(file);
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** The kept secret, as long as SESSION_SECRET must be: an empty one would sign with no key. */
function keptSecret(file: string) {
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) {
    throw new SettingsError([
      `${file}: Der gespeicherte Schlüssel (session-secret) ist leer oder zu kurz (mindestens 32 Zeichen). Löschen Sie die Datei; beim nächsten Start wird ein neuer erzeugt (alle Anmeldungen enden dann).`,
    ]);
  }
  return secret;
}

let cached: Settings | undefined;

/** The settings of this process, checked on first use (the server touches them at start). */
/**
 * Settings that parents or the mail's receivers see and whose defaults are only examples (an
 * admins' review: the quick start went live with a sample bank account shown for transfers):
 * those left unset are named in a warning at every start.
 */
const SEEN_EXAMPLES = [
  "BANK_ACCOUNT_HOLDER",
  "BANK_IBAN",
  "BANK_BIC",
  "BANK_NAME",
  "BANK_CREDITOR_ID",
  "MAIL_FROM",
  "LINK_IMPRINT",
  "LINK_PRIVACY",
  "LINK_CONTACT",
  "LINK_DIRECTIONS",
  "LINK_FAQ",
  "LINK_DOWNLOADS",
] as const;

export function exampleSettingsInUse(env: Record<string, string | undefined>) {
  return SEEN_EXAMPLES.filter((name) => !env[name]?.trim());
}

export function settings(): Settings {
  if (!cached) {
    const parsed = parseSettings(process.env);
    cached = { ...parsed, sessionSecret: resolveSessionSecret(parsed.configuredSessionSecret, parsed.databasePath) };
  }
  return cached;
}
