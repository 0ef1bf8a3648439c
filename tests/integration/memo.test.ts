// Values read once per database state (memo.server.ts), e.g. the footer's legal links: read again
// after any committed write, by this process or another (another worker of the cluster).
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { legalDocuments } from "../../db/schema";
import { cachedLegalLinks } from "~/models/legal.server";
import { db } from "~/services/db.server";
import { settings } from "~/services/env.server";
import { memoizedPerDatabaseState } from "~/services/memo.server";
import { createEvent } from "../support/events";

describe("memoizedPerDatabaseState", () => {
  it("reads once while nothing changes, again after a write here or by another connection", () => {
    let reads = 0;
    const count = memoizedPerDatabaseState(() => {
      reads++;
      return db.select({ id: legalDocuments.type }).from(legalDocuments).all().length;
    });
    expect(count()).toBe(0);
    expect(count()).toBe(0);
    expect(reads).toBe(1);

    createEvent({ title: "Eine Änderung in diesem Prozess" });
    count();
    expect(reads).toBe(2);

    const other = new Database(settings().databasePath);
    other.prepare("INSERT INTO files (key, display_name, mime_type, size, kind) VALUES ('k', 'agb.pdf', 'application/pdf', 1, 'legal')").run();
    other.prepare("INSERT INTO legal_documents (type, file_id) VALUES ('general_terms', last_insert_rowid())").run();
    other.close();
    expect(count()).toBe(1);
    expect(reads).toBe(3);
    expect(cachedLegalLinks().generalTerms).toBe("/legal/agb.pdf");
  });
});
