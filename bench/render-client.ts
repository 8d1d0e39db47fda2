import net from 'node:net';

/**
 * `POST /v1/render` over kept-alive connections, one request in flight per connection, reading
 * each image to its last byte and dropping it. The benchmark's clients share the server's two
 * cores, so every millisecond they spend is taken from the second render worker and shows up as
 * poor scaling. CPU per request measured here against the same server: fetch (undici) ~3 ms,
 * autocannon ~2.4 ms, node:http ~0.8 ms, undici's Pool ~0.7 ms, this plain-socket client ~0.4 ms.
 * It speaks just what the benchmark needs of HTTP/1.1: a fixed request, a status line, and a body
 * framed by Content-Length (anything else is an error, never a silent miscount).
 */
export function renderClient(baseUrl: string, apiKey: string, body: string) {
  const url = new URL('/v1/render', baseUrl);
  const payload = Buffer.from(body);
  const request = Buffer.concat([
    Buffer.from(
      [
        `POST ${url.pathname} HTTP/1.1`,
        `Host: ${url.host}`,
        `Authorization: Bearer ${apiKey}`,
        'Content-Type: application/json',
        `Content-Length: ${payload.byteLength}`,
        '',
        '',
      ].join('\r\n'),
    ),
    payload,
  ]);
  const sockets: net.Socket[] = [];
  const senders: (() => Promise<void>)[] = [];

  /**
   * Connection `slot`, kept alive across runs (a new one if the server closed it); the function it
   * returns sends one request and resolves once the whole body has arrived.
   */
  function connection(slot: number): () => Promise<void> {
    const existing = senders[slot];
    if (existing && !sockets[slot]?.destroyed) return existing;
    const socket = net.connect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    let waiting: { resolve: () => void; reject: (error: Error) => void } | undefined;
    let head: Buffer | undefined;
    /** Body bytes still to come, or -1 while reading the status line and headers. */
    let remaining = -1;
    const fail = (error: Error) => {
      socket.destroy();
      waiting?.reject(error);
      waiting = undefined;
    };
    socket.on('data', (chunk: Buffer) => {
      if (remaining < 0) {
        head = head ? Buffer.concat([head, chunk]) : chunk;
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headers = head.subarray(0, end).toString('latin1');
        const status = /^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1];
        const length = /\r\ncontent-length: *(\d+)/i.exec(headers)?.[1];
        if (status !== '200') return fail(new Error(`render answered ${status}: ${headers}`));
        if (length === undefined) return fail(new Error('render answered without Content-Length'));
        remaining = Number(length) - (head.byteLength - end - 4);
        head = undefined;
      } else remaining -= chunk.byteLength;
      if (remaining < 0) return fail(new Error('render answered more bytes than it announced'));
      if (remaining === 0) {
        remaining = -1;
        const done = waiting;
        waiting = undefined;
        done?.resolve();
      }
    });
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the server closed the connection')));
    const send = () =>
      new Promise<void>((resolve, reject) => {
        waiting = { resolve, reject };
        socket.write(request);
      });
    sockets[slot] = socket;
    senders[slot] = send;
    return send;
  }

  /** `count` renders through `clients` concurrent connections; renders per second. */
  const run = async (count: number, clients = 8): Promise<number> => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async (_, slot) => {
        const renderOnce = connection(slot);
        while (next < count) {
          next += 1;
          await renderOnce();
        }
      }),
    );
    return count / ((performance.now() - started) / 1000);
  };
  return {
    run,
    close: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}
