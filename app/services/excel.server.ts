// Excel workbooks written with exceljs in streaming mode: each row is committed and flushed as it
// is added, so a list of any length needs little memory. Every text cell goes through
// `safeText` (the formula guard, docs/decisions/0013-event-mail-and-lists.md).
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import ExcelJS from "exceljs";
import { contentDisposition } from "./file-response.server";

export type CellValue = string | number | Date | null;

export type Column = { header: string; width: number; type?: "text" | "date" | "number" | "euro" };

export const DATE_FORMAT = "dd.mm.yyyy";
export const EURO_FORMAT = '#,##0.00 "€"';

// eslint-disable-next-line no-control-regex
const NOT_IN_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A text starting with one of these could be run by a spreadsheet as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The formula guard: a text cell that a spreadsheet could read as a formula gets a leading
 * apostrophe, so it stays visible text whatever a program does with it (re-editing the cell,
 * saving as CSV). What XML cannot hold is dropped: control characters other than tab and
 * newline, U+FFFE and U+FFFF, and halves of a character (a text saved before the forms dropped
 * them; one made the whole list unreadable).
 */
export function safeText(value: string) {
  const clean = value.replace(NOT_IN_XML, "");
  return FORMULA_START.test(clean) ? `'${clean}` : clean;
}

/** A calendar date (YYYY-MM-DD) as the Date exceljs writes as that day's Excel date serial. */
export function excelDate(isoDate: string | null | undefined) {
  if (!isoDate) return null;
  const [y, m, d] = isoDate.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

export type SheetWriter = {
  /** A row of values in column order; strings are guarded. */
  row(values: CellValue[], options?: { bold?: boolean }): void;
  /** The bold header row; frozen when the sheet was opened with `frozenRow` = this row's number. */
  header(): void;
  done(): void;
};

export type WorkbookWriter = {
  sheet(name: string, columns: Column[], options?: { frozenRow?: number }): SheetWriter;
  finish(): Promise<void>;
};

/**
 * Excel's rules for sheet names: at most 31 characters, none of []:*?/\ and no control
 * character, no apostrophe first or last, not "History" (Excel's own), unique in the book. The
 * streaming writer checks none of them, and Excel calls a book that breaks one damaged.
 */
export function sheetName(name: string, taken: Set<string>) {
  const cleaned = name.replace(NOT_IN_XML, "").replace(/[[\]:*?/\\\p{Cc}]/gu, " ").replace(/^[\s']+|[\s']+$/g, "");
  // At most 31 UTF-16 units with the number that makes it unique; a character is never cut in half.
  const cut = (text: string, units: number) => {
    let kept = "";
    for (const char of text) {
      if (kept.length + char.length > units) break;
      kept += char;
    }
    return kept.replace(/[\s']+$/, "");
  };
  const base = cut(cleaned, 28) || "Tabelle";
  const used = (candidate: string) => candidate.toLowerCase() === "history" || taken.has(candidate.toLowerCase());
  let candidate = base;
  for (let n = 2; used(candidate); n++) candidate = `${cut(base, 30 - String(n).length)} ${n}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/**
 * Starts a streaming workbook; `fill` writes its sheets. Returns the web stream of the .xlsx
 * file at once; rows are produced while the answer is read.
 */
export function streamWorkbook(fill: (book: WorkbookWriter) => Promise<void> | void) {
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  workbook.creator = "Lagerfeuer";
  const names = new Set<string>();
  const book: WorkbookWriter = {
    sheet(name, columns, options = {}) {
      const frozenRow = options.frozenRow ?? 1;
      const worksheet = workbook.addWorksheet(sheetName(name, names), {
        views: [{ state: "frozen", ySplit: frozenRow, xSplit: 0 }],
      });
      worksheet.columns = columns.map((c, i) => ({
        key: `c${i}`,
        width: c.width,
        style: c.type === "date" ? { numFmt: DATE_FORMAT } : c.type === "euro" ? { numFmt: EURO_FORMAT } : {},
      }));
      const row: SheetWriter["row"] = (values, rowOptions = {}) => {
        const added = worksheet.addRow(values.map((v) => (typeof v === "string" ? safeText(v) : v)));
        if (rowOptions.bold) added.font = { bold: true };
        added.commit();
      };
      return {
        row,
        header: () => row(columns.map((c) => c.header), { bold: true }),
        done: () => worksheet.commit(),
      };
    },
    finish: async () => {
      await workbook.commit();
    },
  };
  Promise.resolve()
    .then(() => fill(book))
    .then(() => book.finish())
    .catch((error) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return createReadableStreamFromReadable(output);
}

/** The answer for a workbook download under `fileName` (e.g. 'Teilnehmerliste (Zeltlager).xlsx'). */
export function workbookResponse(fileName: string, body: ReadableStream<Uint8Array>) {
  return new Response(body, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": contentDisposition("attachment", fileName),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
