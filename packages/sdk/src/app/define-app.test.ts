import test from 'ava';
import { defineApp } from './define-app.js';
import { definePublicRoute, defineRoute, type RouteRateLimit } from './routes.js';

const route = (path: string, rateLimits: RouteRateLimit[]) => definePublicRoute({ method: 'POST', path, rateLimits, handler: () => null });
const limit = (fields: Partial<RouteRateLimit> = {}): RouteRateLimit => ({ name: 'apply', per: 'client', limit: 10, windowSeconds: 600, message: 'Too many', ...fields });

test('rate limits of routes: a counter by the client or a path parameter, named once, within the bounds', (t) => {
  t.notThrows(() => defineApp({}, { routes: [route('/jobs/{job_id}/applications', [limit(), limit({ name: 'apply-job', per: 'param:job_id' })])] }));
  const refusals: Array<[RouteRateLimit[], RegExp]> = [
    [[limit({ name: 'Apply' })], /name must be 1-50 lower-case/],
    [[limit(), limit()], /the name is used twice/],
    [[limit({ per: 'param:id' })], /per must be 'client', 'member' or 'param:\{name\}'/],
    [[limit({ per: 'member' })], /per 'member' needs a caller, and a public route has none/],
    [[limit({ limit: 0 })], /limit must be an integer 1-1000000/],
    [[limit({ windowSeconds: 86_401 })], /windowSeconds must be an integer 1-86400/],
    [[limit({ message: '' })], /message must be 1-300 characters/],
  ];
  for (const [limits, message] of refusals) t.throws(() => defineApp({}, { routes: [route('/jobs/{job_id}/applications', limits)] }), { message }, String(message));
  t.throws(() => defineApp({}, { routes: [route('/a', [limit()]), route('/b', [limit()])] }), { message: /used twice/ }, 'names are unique across the routes');
  t.notThrows(() => defineApp({}, { routes: [defineRoute({ method: 'POST', path: '/posts', chain: [], rateLimits: [limit({ per: 'member' })], handler: () => null })] }), "a route with a caller may count per member");
});
