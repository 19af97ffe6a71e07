/**
 * What the Recruiting tests add to `startWorld` of @wpk/testing: the app loaded from its folder
 * (so its public files, `/public/apps/ats/*`, are served too), and an anonymous POST from a chosen
 * client address (the apply form's rate limit counts per address).
 */
import { API_VERSION, startWorld, type TestResponse, type World } from '@wpk/testing';
import { fileURLToPath } from 'node:url';

const APP_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface AtsWorld extends World {
  /** An anonymous POST as if from the client address `address`. */
  postFrom(address: string, path: string, payload: unknown): Promise<TestResponse>;
}

export async function atsWorld(subdomain: string, options: { listen?: boolean } = {}): Promise<AtsWorld> {
  const world = await startWorld({ app: APP_DIR, subdomain, listen: options.listen });
  return {
    ...world,
    async postFrom(address, path, payload) {
      const { runtime } = world.platform;
      const response = await runtime.server.inject({
        method: 'POST', url: path, remoteAddress: address, payload: payload as object,
        headers: { host: `${subdomain}.${runtime.config.baseDomain}`, 'x-api-version': API_VERSION, 'content-type': 'application/json' },
      });
      return { status: response.statusCode, body: response.payload ? JSON.parse(response.payload) : null, headers: response.headers as TestResponse['headers'] };
    },
  };
}
