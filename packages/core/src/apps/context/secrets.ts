import type { AppSecrets } from '@wpk/sdk';
import { SecretBox } from '../../identity/index.js';
import type { LoadedApp } from '../loader.js';
import type { ContextInputs } from './inputs.js';

const secretBoxes = new WeakMap<LoadedApp, AppSecrets>();

/** `ctx.secrets` of an app: a SecretBox keyed by the platform's secret and the app's namespace (made once per app). */
export function secretsOf({ runtime, platform }: ContextInputs): AppSecrets {
  const { app } = runtime;
  let secrets = secretBoxes.get(app);
  if (!secrets) {
    const box = new SecretBox(`${platform.secret}\napp:${app.namespace}`);
    secrets = Object.freeze({ seal: (plain: string) => box.seal(plain), open: (sealed: string) => box.open(sealed) });
    secretBoxes.set(app, secrets);
  }
  return secrets;
}
