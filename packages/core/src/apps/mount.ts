import type { Server } from '@hapi/hapi';
import type { ChainStep } from '@wpk/sdk';
import { routeKey } from '@wpk/sdk/tooling';
import type { Sequelize } from 'sequelize';
import { appGuard, type AccessDenial } from '../access/index.js';
import type { InstallationService } from './installations.js';
import type { AppPipeline, AppRuntime } from './pipeline.js';
import type { AppRegistry } from './registry.js';

/** What mounting the apps' routes needs. */
export interface MountOptions {
  sequelize: Sequelize;
  registry: AppRegistry;
  /** Each app with its models bound to this runtime's connection. */
  bound: ReadonlyMap<string, AppRuntime>;
  pipeline: AppPipeline;
  installations: InstallationService;
  /** Hears every access denial of layers 2-5 on app routes (the `system.security.permission.denied` event). */
  onDenied: (denial: AccessDenial) => void;
}

/**
 * Mounts every route of every in-process app under its prefix, each run through the pipeline
 * (`ctx`, one unit of work) and each guarded by the app guard (layers 4 and 5,
 * `access/app-guard.ts`) as its own onPostAuth extension: the guard is scoped to the app routes,
 * no platform route passes through it.
 */
export async function mountAppRoutes(server: Server, options: MountOptions): Promise<void> {
  const { sequelize, registry, bound, pipeline, installations, onDenied } = options;
  const guard = appGuard({
    sequelize,
    loadInstallation: (workspaceId, namespace) => installations.find(workspaceId, namespace),
    runCheck: (request, access, name) => pipeline.runCheck(bound.get(access.namespace)!, request, access, name),
    onDenied,
  });
  for (const app of registry.withCode()) {
    const runtime = bound.get(app.namespace)!;
    const table = new Map(app.manifest.authorization.map((entry) => [routeKey(entry.method, entry.path), entry]));
    for (const route of app.definition!.routes) {
      const entry = table.get(routeKey(route.method, route.path))!;
      server.route(pipeline.hapiRoute(runtime, route, entry.public === true ? null : ((entry.chain ?? []) as ChainStep[]), guard));
    }
  }
}
