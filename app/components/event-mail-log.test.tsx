import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EventMailLog } from "./event-mail-log";

const mail = (addresses: string[]) => ({
  id: 1,
  subject: "Packliste",
  senderName: "Lea Leitung",
  createdAt: "2026-11-20T10:00:00.000Z",
  attachments: [],
  recipients: addresses.map((email) => ({ email, state: "sent" as const, error: null })),
});

// Every mail sent: no 'Erneut senden' form, so no router is needed to draw it.
const render = (addresses: string[]) => renderToStaticMarkup(<EventMailLog mails={[mail(addresses)]} />);

describe("the mail log's count of recipients", () => {
  it("says one recipient in the singular", () => {
    expect(render(["a@example.org"])).toContain("1 Empfänger*in: 1 gesendet");
    expect(render(["a@example.org", "b@example.org"])).toContain("2 Empfänger*innen: 2 gesendet");
  });
});
