/**
 * A local HTTP server standing in for a third-party service in a test (video call providers):
 * records each request (method, path, query, headers, body) and answers with the test's handler.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

export interface StandInRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface StandInAnswer {
  status?: number;
  json?: unknown;
  text?: string;
}

export interface StandIn {
  /** http://127.0.0.1:PORT (no trailing slash). */
  origin: string;
  requests: StandInRequest[];
  close(): Promise<void>;
}

export async function startStandIn(handler: (request: StandInRequest) => StandInAnswer): Promise<StandIn> {
  const requests: StandInRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { method: req.method ?? "GET", url: new URL(req.url ?? "/", "http://stand-in"), headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(request);
      const answer = handler(request);
      res.statusCode = answer.status ?? 200;
      res.setHeader("content-type", answer.json !== undefined ? "application/json" : "text/plain");
      res.end(answer.json !== undefined ? JSON.stringify(answer.json) : (answer.text ?? ""));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
