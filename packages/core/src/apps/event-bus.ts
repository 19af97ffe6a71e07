import type { DeliveredEvent } from '@wpk/sdk';
import { isInstalled } from '../access/index.js';
import type { EmissionGuard, EventBus, SubscriberFilter } from '../events/index.js';
import type { Workspace } from '../tenancy/index.js';
import { InstallationService } from './installations.js';
import type { AppPipeline, AppRuntime, Work } from './pipeline.js';
import type { AppRegistry } from './registry.js';

/** Fan-out narrowed per workspace: a loaded app receives only where it is installed (other subscribers always). */
export function installedSubscribers(registry: AppRegistry): SubscriberFilter {
  return async ({ workspaceId, subscribers, client }) => {
    const apps = subscribers.filter((subscriber) => registry.has(subscriber));
    if (apps.length === 0) return subscribers;
    const installed = await InstallationService.installedAmong(client, workspaceId, apps);
    return subscribers.filter((subscriber) => !registry.has(subscriber) || installed.has(subscriber));
  };
}

/** A remote app may emit through the ingress only into a workspace where it is installed. */
export function installedEmitters(registry: AppRegistry, installations: InstallationService): EmissionGuard {
  return async ({ app, workspaceId }) => {
    if (!registry.has(app)) return false;
    return isInstalled(await installations.find(workspaceId, app));
  };
}

/**
 * Puts the apps on the event bus: registers each as a participant (what it emits, what it
 * subscribes to, its address when remote) and mounts the subscription handlers of in-process
 * apps, run with the app's context and skipped where the app is not installed.
 */
export function joinEventBus(bus: EventBus, apps: { registry: AppRegistry; bound: ReadonlyMap<string, AppRuntime>; pipeline: AppPipeline; installations: InstallationService }): void {
  const { registry, bound, pipeline, installations } = apps;
  for (const participant of registry.participants()) bus.registerParticipant(participant);
  for (const app of registry.withCode()) {
    const handlers = Object.keys(app.definition!.subscriptions);
    if (handlers.length === 0) continue;
    const runtime = bound.get(app.namespace)!;
    bus.mountSubscriptions({
      app: app.namespace,
      context: (input) => input,
      handlers: Object.fromEntries(
        handlers.map((action) => [
          action,
          async (delivery, input: { workspace: Workspace; work: Work }) => {
            const installation = await installations.find(input.workspace.id, app.namespace);
            if (!isInstalled(installation)) return;
            const event: DeliveredEvent = { action: delivery.action, payload: delivery.payload, metadata: delivery.metadata as DeliveredEvent['metadata'], deliveryId: delivery.deliveryId, attempt: delivery.attempt };
            await pipeline.deliverInWork(runtime, input.workspace, installations.effectiveSettings(app, installation), input.work, event);
          },
        ]),
      ),
    });
  }
}
