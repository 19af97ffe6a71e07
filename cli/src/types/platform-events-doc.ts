import type { JsonSchema } from '@wpk/sdk';
import { ACCOUNT_EVENT_CATALOG, BILLING_EVENT_CATALOG, SYSTEM_EVENT_CATALOG, type PlatformEvent } from '@wpk/sdk/tooling';
import { typeName } from './generate.js';

/** A property's type in words: `string (uuid)`, `"owner" \| "admin"`, `array of string`, `... or ...`. */
function describeType(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(' \\| ');
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(describeType).join(' or ');
  if (schema.type === 'array') return `array of ${schema.items ? describeType(schema.items as JsonSchema) : 'anything'}`;
  const type = String(schema.type ?? 'any');
  const details = [schema.format, typeof schema.minimum === 'number' ? `≥ ${schema.minimum}` : undefined, typeof schema.minLength === 'number' && schema.minLength > 0 ? 'not empty' : undefined].filter(Boolean);
  return details.length > 0 ? `${type} (${details.join(', ')})` : type;
}

function section(event: PlatformEvent): string {
  const properties = (event.schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((event.schema.required ?? []) as string[]);
  const rows = Object.entries(properties).map(([name, schema]) => `| \`${name}\` | ${describeType(schema)} | ${required.has(name) ? 'yes' : 'no'} | ${event.redact.includes(name) ? 'yes' : ''} | ${String(schema.description ?? '')} |`);
  return [
    `### \`${event.action}\``,
    '',
    `${event.description} Payload type in \`src/app.types.ts\` (\`wpk types\`): \`${typeName(event.action)}Payload\`.`,
    '',
    '| field | type | required | redacted | notes |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/**
 * docs/platform-events.md: every event the platform emits with its payload, generated from the
 * SDK's catalog (a test compares the committed file with this; `npx tsx cli/scripts/platform-events-doc.ts`
 * rewrites it).
 */
export function platformEventsMarkdown(): string {
  return `${[
    '# Platform events',
    '',
    '<!-- Generated from packages/sdk/src/manifest/catalog.ts by `npx tsx cli/scripts/platform-events-doc.ts`; a test keeps it in step. Do not edit by hand. -->',
    '',
    'The events the platform runtime itself emits, with their payloads. Any app may subscribe to',
    'them in its manifest (`subscriptions`); no app may emit them. Every payload may carry more',
    'fields than listed (`additionalProperties: true`); a field not marked required may be absent.',
    'Every delivery also has `metadata.workspace_id`. "Who did it" fields (`*_by`) hold a member id,',
    'or an MRN for an API key or the system. Redacted fields are masked in logs and delivery',
    'listings; subscribers receive them in clear.',
    '',
    '`wpk types` writes a TypeScript type for each event an app subscribes to, so a handler',
    "declared as `SubscriptionHandler<Models, AppTypes, 'system.app.installed'>` reads",
    '`event.payload.app_slug` as a `string` (see writing-an-app.md, "Typed contracts").',
    '',
    '## `system.*`: lifecycle and security',
    '',
    'The `system.security.*` events feed the audit trail.',
    '',
    ...SYSTEM_EVENT_CATALOG.flatMap((event) => [section(event), '']),
    '## `core.account.*`: the account area',
    '',
    'Apps, roles and members, as the account area changes them.',
    '',
    ...ACCOUNT_EVENT_CATALOG.flatMap((event) => [section(event), '']),
    '## `core.billing.*`: billing',
    '',
    'Invoices of the platform\'s billing (docs/billing.md); `amount` is an exact decimal string.',
    '',
    ...BILLING_EVENT_CATALOG.flatMap((event) => [section(event), '']),
  ]
    .join('\n')
    .trimEnd()}\n`;
}
