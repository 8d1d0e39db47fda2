import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; data: Record<string, unknown> };
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** The status the next request gets (then `status` again); default 200. */
  answers: number[];
  status: number;
  /** Resolves once `count` deliveries of `type` arrived (bounded wait). */
  waitFor(type: string, count?: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/** A real HTTP server on a random 127.0.0.1 port that records every POST it gets. */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const receiver = {
    received,
    answers: [] as number[],
    status: 200,
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = receiver.answers.shift() ?? receiver.status;
      const body = Buffer.concat(chunks).toString('utf8');
      if (status >= 200 && status < 300)
        received.push({ headers: request.headers, body, json: JSON.parse(body) });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${address.port}/hooks/render-desk`,
    async waitFor(type: string, count = 1, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter((r) => r.json.type === type);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline)
          throw new Error(`waited ${timeoutMs} ms for ${count} ${type}; got ${matching.length}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
