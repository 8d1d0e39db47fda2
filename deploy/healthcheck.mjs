// Container health check of an API node: GET /healthz on this node answers 200 when the node
// reaches PostgreSQL and Redis. The request names the first allowed host, the name the node
// answers to, so the check passes the Host-header guard. Exit 0 healthy, 1 not.
import http from 'node:http';

const port = Number(process.env.RENDER_DESK_PORT || 5317);
const host = (process.env.RENDER_DESK_ALLOWED_HOSTS || 'localhost').split(',')[0].trim();

const request = http.get(
  { host: '127.0.0.1', port, path: '/healthz', headers: { host }, timeout: 4000 },
  (response) => {
    response.resume();
    process.exit(response.statusCode === 200 ? 0 : 1);
  },
);
request.on('timeout', () => request.destroy(new Error('timed out')));
request.on('error', () => process.exit(1));
