import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** With no limit to read (Windows) or a very high one, this many connections at most. */
export const MAX_CONNECTIONS = 4096;
const MIN_CONNECTIONS = 32;

/**
 * Connections allowed for an open-file limit: half of it, so files, SQLite, the render threads'
 * own handles and uploads always find a descriptor whatever the sockets do.
 */
export function connectionCap(openFileLimit: number | null): number {
  if (openFileLimit === null || !Number.isFinite(openFileLimit)) return MAX_CONNECTIONS;
  return Math.max(MIN_CONNECTIONS, Math.min(MAX_CONNECTIONS, Math.floor(openFileLimit / 2)));
}

export interface ConnectionGuard {
  /** Connections open now. */
  open(): number;
}

/**
 * Keeps the server's connections under `maxConnections` without letting idle ones lock others
 * out. Any local process may open sockets and send nothing (no key is needed to connect): with
 * only a cap, 1,100 of them took every place and every other client waited, and Node's own
 * timeouts never close a connection that sends nothing, nor one that stops halfway through its
 * headers. So here:
 * - a connection with no request in progress (never sent one, kept alive after one, or still
 *   dribbling its headers) is closed after `idleTimeoutMs`;
 * - one arriving at a full table closes the longest-idle one to make room;
 * - only when every connection is serving a request is the newcomer refused, by Node's own
 *   `maxConnections`.
 */
export function guardConnections(
  server: Server,
  options: {
    maxConnections: number;
    idleTimeoutMs?: number;
    log?: (message: string) => void;
  },
): ConnectionGuard {
  const { maxConnections } = options;
  const idleTimeoutMs = options.idleTimeoutMs ?? 10_000;
  server.maxConnections = maxConnections;
  /** Idle connections and since when, longest idle first (a Map keeps insertion order). */
  const idle = new Map<Socket, number>();
  const active = new Map<Socket, number>();
  let open = 0;
  let lastLogged = 0;

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [socket, since] of idle) {
        if (now - since < idleTimeoutMs) break;
        idle.delete(socket);
        socket.destroy();
      }
    },
    Math.min(2_000, idleTimeoutMs),
  );
  sweep.unref();
  server.once('close', () => clearInterval(sweep));

  server.on('connection', (socket: Socket) => {
    open += 1;
    idle.set(socket, Date.now());
    socket.once('close', () => {
      open -= 1;
      idle.delete(socket);
      active.delete(socket);
    });
    if (open < maxConnections) return;
    // Make room for the next arrival; never close the one that just came.
    for (const candidate of idle.keys()) {
      if (candidate === socket) continue;
      idle.delete(candidate);
      candidate.destroy();
      if (Date.now() - lastLogged > 60_000) {
        lastLogged = Date.now();
        options.log?.(
          `${maxConnections} connections are open, the most allowed; closing the longest-idle ones to make room.`,
        );
      }
      break;
    }
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    idle.delete(socket);
    active.set(socket, (active.get(socket) ?? 0) + 1);
    let done = false;
    const finished = () => {
      if (done) return;
      done = true;
      const left = (active.get(socket) ?? 1) - 1;
      if (left > 0) {
        active.set(socket, left);
      } else {
        active.delete(socket);
        // Idle from now: last in line to be closed.
        if (!socket.destroyed) idle.set(socket, Date.now());
      }
    };
    response.once('finish', finished);
    response.once('close', finished);
  });

  return { open: () => open };
}
