import net from 'node:net';

/**
 * A port that was free on 127.0.0.1 a moment ago. Another process can take it before the service
 * binds it, so services that are given a port retry with a new one when the bind fails.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('The operating system gave no port.'));
      });
    });
  });
}

/** Whether a service's log says its port was taken (the caller then tries another port). */
export function saysAddressInUse(log: string): boolean {
  return /address already in use/i.test(log);
}
