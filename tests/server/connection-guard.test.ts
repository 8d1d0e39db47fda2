import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionCap, MAX_CONNECTIONS } from '../../main/server/connection-guard.js';
import { runawayRender } from '../helpers/runaway-template.js';
import { spawnServe, type SpawnedServe } from '../helpers/spawn-serve.js';
import { testFetch } from '../helpers/test-server.js';

/**
 * Any local process may open sockets to the server without a key. With a 1,024 open-file limit,
 * ~1,100 idle ones once locked every other client out, and the render thread that then had to
 * be replaced could not start, which ended the process. Here the same at a quarter of the scale:
 * a server limited to 256 open files, and 650 sockets that send nothing or half their headers.
 */

const KEY = 'rdk_connection_guard_key_0123456789';
const OPEN_FILES = 256;
let server: SpawnedServe | undefined;
let dataDir: string | undefined;
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  server?.child.kill('SIGKILL');
  await server?.exited();
  server = undefined;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

function hold(port: number, send = ''): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.on('connect', () => {
      if (send) socket.write(send);
      resolve(socket);
    });
    // Refused or reset at once: the server is shedding load; count it as held and closed.
    socket.on('close', () => resolve(socket));
    sockets.push(socket);
  });
}

describe('many idle connections from one local process', () => {
  it('leave other clients served, renders working and the server up', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-connections-'));
    server = await spawnServe(dataDir, { RENDER_DESK_API_KEY: KEY }, 1, {
      openFileLimit: OPEN_FILES,
      args: ['--render-timeout', '5'],
    });
    const { url } = server;
    const port = Number(new URL(url).port);
    const api = (pathname: string, init: RequestInit & { json?: unknown } = {}) =>
      testFetch(url + pathname, {
        ...init,
        headers: {
          authorization: `Bearer ${KEY}`,
          ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      });
    const { runaway, normal } = await runawayRender(api);

    for (let i = 0; i < 600; i += 1) await hold(port);
    for (let i = 0; i < 50; i += 1) await hold(port, 'GET /v1/account HTTP/1.1\r\nHost: 127.0');

    // A normal client gets in and is answered.
    const account = await api('/v1/account');
    expect(account.status).toBe(200);
    // A render that passes its deadline has its thread replaced while the sockets are held, and
    // the next render runs on the new thread.
    const stopped = await api('/v1/render', { method: 'POST', json: runaway });
    expect(stopped.status).toBe(422);
    const rendered = await api('/v1/render', { method: 'POST', json: normal });
    expect(rendered.status).toBe(200);
    await rendered.arrayBuffer();

    expect(server.child.exitCode).toBeNull();
    const closedByServer = sockets.filter((socket) => socket.destroyed || socket.readableEnded);
    expect(closedByServer.length).toBeGreaterThanOrEqual(650 - connectionCap(OPEN_FILES));
    if (process.platform === 'linux') {
      const open = fs.readdirSync(`/proc/${server.child.pid}/fd`).length;
      expect(open).toBeLessThan(OPEN_FILES);
    }
  }, 180_000);

  it('allows half the open-file limit, within sane bounds', () => {
    expect(connectionCap(256)).toBe(128);
    expect(connectionCap(1024)).toBe(512);
    expect(connectionCap(40)).toBe(32);
    expect(connectionCap(1_048_576)).toBe(MAX_CONNECTIONS);
    expect(connectionCap(null)).toBe(MAX_CONNECTIONS);
  });
});
