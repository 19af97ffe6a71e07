import type { Server } from '@hapi/hapi';
import { apiKeysPlugin } from './api-keys/plugin.js';
import { aiPlugin } from './ai/plugin.js';
import { appCatalogPlugin, appsPlugin } from './apps/plugin.js';
import { appTokensPlugin } from './app-tokens/plugin.js';
import { auditPlugin } from './audit/plugin.js';
import { billingPlugin } from './billing/plugin.js';
import type { CoreInputs } from './core-inputs.js';
import type { CorePlugin } from './core-plugin.js';
import { dbPlugin } from './db/plugin.js';
import { eventsPlugin } from './events/plugin.js';
import { identityPlugin } from './identity/plugin.js';
import { livePlugin } from './live/plugin.js';
import { mailPlugin } from './mail/plugin.js';
import { messagesPlugin } from './messages/plugin.js';
import { notificationsPlugin } from './notifications/plugin.js';
import { openApiPlugin } from './openapi/plugin.js';
import { operatorsPlugin } from './operators/plugin.js';
import { searchPlugin } from './search/plugin.js';
import { signalingPlugin } from './signaling/plugin.js';
import { serverPlugin } from './server/plugin.js';
import { storagePlugin } from './storage/plugin.js';
import { tenancyPlugin } from './tenancy/plugin.js';
import { webPlugin } from './web/plugin.js';

/**
 * Every core concern, as a hapi plugin (the folder's plugin.ts; this file is the only one that
 * imports them), made with `defineCorePlugin` (core-plugin.ts). Each declares what it reads
 * (`deps`: runtime inputs, other plugins' services) and the plugins it must follow though it reads
 * nothing of theirs (`after`: its hooks run after theirs); the order they are registered in comes
 * from those declarations (its `dependencies`, see `orderPlugins`). Where the declarations leave a
 * choice, this list's order decides, so hooks of one lifecycle step run in this order.
 * docs/architecture.md lists the same plugins (a test keeps them in step).
 */
export const CORE_PLUGINS: readonly CorePlugin[] = [
  dbPlugin,
  tenancyPlugin,
  serverPlugin,
  appCatalogPlugin,
  eventsPlugin,
  auditPlugin,
  mailPlugin,
  storagePlugin,
  apiKeysPlugin,
  appTokensPlugin,
  identityPlugin,
  searchPlugin,
  livePlugin,
  signalingPlugin,
  notificationsPlugin,
  appsPlugin,
  messagesPlugin,
  billingPlugin,
  operatorsPlugin,
  aiPlugin,
  webPlugin,
  openApiPlugin,
];

/**
 * The plugins in an order where each comes after every plugin it depends on, otherwise keeping
 * the given order. Throws on an unknown dependency, a duplicate name or a cycle.
 */
export function orderPlugins(plugins: readonly CorePlugin[]): CorePlugin[] {
  const names = new Set<string>();
  for (const plugin of plugins) {
    if (names.has(plugin.name)) throw new Error(`core plugin ${plugin.name} is listed twice`);
    names.add(plugin.name);
  }
  for (const plugin of plugins) {
    for (const dependency of plugin.dependencies) if (!names.has(dependency)) throw new Error(`core plugin ${plugin.name} depends on ${dependency}, which is not a core plugin`);
  }
  const placed = new Set<string>();
  const ordered: CorePlugin[] = [];
  while (ordered.length < plugins.length) {
    const next = plugins.find((plugin) => !placed.has(plugin.name) && plugin.dependencies.every((dependency) => placed.has(dependency)));
    if (!next) throw new Error(`core plugins depend on each other in a cycle: ${plugins.filter((plugin) => !placed.has(plugin.name)).map((plugin) => plugin.name).join(', ')}`);
    placed.add(next.name);
    ordered.push(next);
  }
  return ordered;
}

/** Registers every core plugin on the server, one at a time, in dependency order. */
export async function registerCorePlugins(server: Server, inputs: CoreInputs, plugins: readonly CorePlugin[] = CORE_PLUGINS): Promise<void> {
  for (const plugin of orderPlugins(plugins)) await server.register({ plugin, options: inputs });
}
