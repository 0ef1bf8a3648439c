// Event fixtures and multipart requests like a browser's.
import { deflateSync } from "node:zlib";
import { eventHelpers, eventOwners, events, type HelperStatus } from "../../db/schema";
import { berlinToInstant, berlinToday } from "~/lib/dates";
import { db } from "~/services/db.server";

export function daysFromToday(days: number) {
  const date = new Date(`${berlinToday()}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function createEvent(
  options: Partial<typeof events.$inferInsert> & { inDays?: number; ownerIds?: number[]; helpers?: [number, HelperStatus][] } = {},
) {
  const { inDays = 30, ownerIds = [], helpers = [], ...values } = options;
  const dateFrom = values.dateFrom ?? daysFromToday(inDays);
  const timeFrom = values.timeFrom ?? "10:00";
  const event = db
    .insert(events)
    .values({
      title: "Zeltlager",
      description: "Eine Woche am See.",
      location: "Plön",
      ...values,
      dateFrom,
      timeFrom,
      startsAt: berlinToInstant(dateFrom, timeFrom),
    })
    .returning()
    .get();
  for (const userId of ownerIds) db.insert(eventOwners).values({ eventId: event.id, userId }).run();
  for (const [userId, status] of helpers) db.insert(eventHelpers).values({ eventId: event.id, userId, status }).run();
  return event;
}

/** A tiny valid PNG of the given size. */
export function pngBytes(width = 64, height = 36) {
  const raw = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)])));
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(typed));
    return Buffer.concat([length, typed, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A minimal ELF header: what an executable looks like to file-type. */
export function executableBytes() {
  return Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120, 0)]);
}

export function pdfBytes() {
  return Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
}

export type Upload = { name: string; bytes: Buffer; type?: string };

/** A multipart POST as a browser sends the event form. */
export function multipartPost(url: string, fields: Record<string, string | string[]>, files: Record<string, Upload[]>, cookie?: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  for (const [field, uploads] of Object.entries(files)) {
    for (const upload of uploads) form.append(field, new File([new Uint8Array(upload.bytes)], upload.name, { type: upload.type ?? "application/octet-stream" }));
  }
  return {
    request: new Request(`http://localhost${url}`, { method: "POST", body: form, headers: cookie ? { Cookie: cookie } : {} }),
    params: {} as Record<string, string>,
    context: {},
  };
}

export function validEventFields(overrides: Record<string, string | string[]> = {}) {
  return {
    title: "Sommerfreizeit",
    description: "Zwei Wochen Ostsee.",
    dateFrom: daysFromToday(60),
    timeFrom: "09:30",
    location: "Hohwacht",
    price: "249,50",
    ...overrides,
  };
}
