// What one client can hold of the server, refused before a request reaches the app: how long its
// headers and its whole request may take to arrive, and how many connections one address keeps
// open. Without these, one client on the open internet that opens thousands of connections and
// sends nothing (or a header a second) uses up the process's file descriptors and memory, and
// no one else gets in. Requests node's own parser refuses (a malformed request line, headers too
// large, two Content-Lengths, a timeout, an Expect it cannot meet) get the small German error
// page instead of a bare status line, and a log line as every request.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { logRefusal, logRequest, newRequestId } from "./log.server";
import { errorPage, securityHeaders } from "./security.server";
import { clientAddressKey } from "~/lib/client-address";

/**
 * For createServer: headers must arrive within 20 s (a phone on a weak connection sends a few
 * hundred bytes), a whole request within 10 minutes (the event form with its picture and
 * attachments, at most 60 MB, takes 8 minutes at 1 Mbit/s from a camp's field), checked every
 * 5 s. A client that sends its body slowly on purpose holds at most its share of connections
 * (MAX_CONNECTIONS_PER_ADDRESS) that long.
 */
export const SERVER_LIMITS = {
  headersTimeout: 20_000,
  requestTimeout: 600_000,
  connectionsCheckingInterval: 5_000,
  // node would answer an HTTP/1.1 request without Host itself, bare and in English; the server's
  // own check refuses it with the German page (server.mjs, hostsFine).
  requireHostHeader: false,
} as const;

/**
 * Connections one address (an IPv6 /64) may hold open in one process. A browser opens at most 6 per host; the
 * rest is room for households and mobile networks that share one address. Connections of a trusted
 * proxy (TRUST_PROXY) are not counted: all clients arrive through it, and it limits them.
 */
export const MAX_CONNECTIONS_PER_ADDRESS = 100;

type Options = {
  /** True for an address whose connections are not counted (a trusted proxy). */
  isProxy: (address: string) => boolean;
  maxPerAddress?: number;
  nonce: () => string;
  https: (socket: Socket) => boolean;
};

export function guardConnections(server: Server, { isProxy, maxPerAddress = MAX_CONNECTIONS_PER_ADDRESS, nonce, https }: Options) {
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    if (socket.remoteAddress === undefined || isProxy(socket.remoteAddress)) return;
    const address = clientAddressKey(socket.remoteAddress); // an IPv6 client by its /64
    const count = (open.get(address) ?? 0) + 1;
    if (count > maxPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });

  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    // As node's own handler: answer only where no answer has begun on this connection.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const status =
      error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : error.code === "HPE_CHUNK_EXTENSIONS_OVERFLOW" ? 413 : 400;
    logRefusal(status, error.code);
    answerAndClose(socket, status);
  });

  // An Expect header node cannot meet (anything but 100-continue): node would answer a bare 417.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    logRequest({ id: newRequestId(), method: req.method ?? "?", url: req.url ?? "/", status: 417, ms: 0 });
    const page = errorPage(417);
    res.writeHead(417, { ...securityHeaders({ nonce: nonce(), development: false, https: https(req.socket) }), ...page.headers, Connection: "close" });
    res.end(page.body);
  });

  // CONNECT asks for a tunnel, which this server never is; node would close the connection
  // without a word.
  server.on("connect", (_request: IncomingMessage, socket: Socket) => {
    logRequest({ id: newRequestId(), method: "CONNECT", url: "/", status: 405, ms: 0 });
    answerAndClose(socket, 405);
  });

  function answerAndClose(socket: Socket, status: number) {
    const page = errorPage(status);
    const body = Buffer.from(page.body);
    const headers: Record<string, string | number> = {
      ...securityHeaders({ nonce: nonce(), development: false, https: https(socket) }),
      ...page.headers,
      "Content-Length": body.length,
      Connection: "close",
    };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
    socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n`), body]));
    socket.once("finish", () => socket.destroy());
  }
}

/** Why the server's port cannot be opened, in German, naming the setting to change. */
export function listenProblem(error: NodeJS.ErrnoException, port: number) {
  if (error.code === "EADDRINUSE") {
    return `Port ${port} ist schon belegt. Läuft Lagerfeuer schon, oder ein anderes Programm auf diesem Port? Dann dieses beenden oder einen anderen PORT wählen.`;
  }
  if (error.code === "EACCES") return `Port ${port} darf dieser Benutzer nicht öffnen (unter 1024 nur mit besonderen Rechten). Bitte einen anderen PORT wählen.`;
  if (error.code === "EADDRNOTAVAIL") return `Die Adresse in HOST gibt es auf diesem Rechner nicht (Port ${port}).`;
  // A host name in HOST that the system cannot resolve (getaddrinfo).
  if (error.code === "ENOTFOUND" || error.code === "EAI_AGAIN" || error.code === "EAI_FAIL") {
    return `Den Rechnernamen in HOST kennt dieses System nicht (${error.code}). Bitte eine Adresse wie 127.0.0.1 oder einen Namen dieses Rechners angeben.`;
  }
  return `Port ${port} kann nicht geöffnet werden (${error.code ?? error.message}).`;
}
