import http from 'node:http';

/**
 * `POST /v1/render` over kept-alive node:http connections, reading the image and dropping it.
 * The benchmark's clients share the server's two cores, so what they spend is taken from the
 * second render worker: fetch (undici) spent ~3 ms of CPU per request here, node:http ~1 ms.
 */
export function renderClient(baseUrl: string, apiKey: string, body: string) {
  const url = new URL('/v1/render', baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const headers = {
    authorization: `Bearer ${apiKey}`,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  };
  const renderOnce = () =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(url, { method: 'POST', agent, headers }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`render answered ${response.statusCode}`));
          return;
        }
        response.on('data', () => {});
        response.on('end', resolve);
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
  /** `count` renders through `clients` concurrent connections; renders per second. */
  const run = async (count: number, clients = 8): Promise<number> => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < count) {
          next += 1;
          await renderOnce();
        }
      }),
    );
    return count / ((performance.now() - started) / 1000);
  };
  return { run, close: () => agent.destroy() };
}
