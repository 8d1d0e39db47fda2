import type { CoreData } from '../../data/core-data.js';
import type { RouteRegistry } from '../route-registry.js';

/**
 * `GET /healthz` for load balancers and orchestrators: 200 `ok` when this node can read its
 * data, 503 otherwise (with the reason when it is a setting to fix, such as a Redis that may
 * evict keys). No key needed, and nothing else revealed.
 */
export function registerHealthRoute(
  registry: RouteRegistry,
  data: CoreData,
  problem: () => string | null = () => null,
): void {
  registry.add(
    {
      method: 'GET',
      url: '/healthz',
      summary: 'Liveness and readiness: 200 ok when the node can reach its data',
      tags: ['system'],
      access: { auth: false },
      responses: {
        200: { description: 'ok', mediaType: 'text/plain' },
        503: { description: 'unavailable', mediaType: 'text/plain' },
      },
    },
    async ({ reply }) => {
      const reason = problem();
      if (reason) {
        return reply
          .code(503)
          .type('text/plain')
          .header('Cache-Control', 'no-store')
          .send(`unavailable: ${reason}`);
      }
      try {
        await data.settings.get('health');
        return reply.type('text/plain').header('Cache-Control', 'no-store').send('ok');
      } catch {
        return reply
          .code(503)
          .type('text/plain')
          .header('Cache-Control', 'no-store')
          .send('unavailable');
      }
    },
  );
}
