import manifestSchema from '../../schema/app.schema.json' with { type: 'json' };
import { compileJsonSchema, createAjv, formatSchemaErrors } from './json-schema.js';
import { appNamespace, emitScopeProblem, eventNameProblem, permissionKeyProblem, RESERVED_SLUGS, SEGMENT_PATTERN } from './naming.js';
import type { AppManifest, ManifestProblem } from './types.js';

/** The app's code as the validator sees it (what `defineApp` was given), for the cross-checks. */
export interface ManifestCodeFacts {
  /** Every route of the app's code. */
  routes: Array<{ method: string; path: string; public?: boolean; chain?: unknown[]; description?: string }>;
  /** Names of the named checks the code implements. */
  checks: string[];
  /** Actions the code has subscription handlers for. */
  subscriptions: string[];
  /** Searchable types the code has hooks for. */
  search: string[];
}

/** What the validator needs besides the manifest. */
export interface ValidateManifestOptions {
  /**
   * True when the runtime's configuration loads this app as first-party. Decided by the
   * configuration, never by the manifest: it unlocks `core.*` events and a publisher-less slug.
   */
  firstParty: boolean;
  /** The file name used in every problem (default `app.json`). */
  file?: string;
  /** The app's code, when available: routes, checks, subscriptions and search hooks are cross-checked. */
  code?: ManifestCodeFacts;
}

const ajv = createAjv();
const validateShape = ajv.compile(manifestSchema);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const stringOr = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A hapi route pattern is a path of literal segments and `{param}`, `{param?}`, `{param*}`, `{param*N}`. */
const PATH_SEGMENT = /^(?:[A-Za-z0-9._~!$&'()+,;=:@-]*(?:\{[A-Za-z_][A-Za-z0-9_]*(?:\?|\*[0-9]*)?\})?[A-Za-z0-9._~!$&'()+,;=:@-]*)$/;

/** Normalises a route pattern for comparison: parameter names do not matter, `{id}` equals `{task_id}`. */
export function routeKey(method: string, path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return `${method.toUpperCase()} ${trimmed.replace(/\{[A-Za-z_][A-Za-z0-9_]*(\?|\*[0-9]*)?\}/g, '{$1}')}`;
}

function routePathProblem(path: string): string | null {
  if (!path.startsWith('/')) return 'must start with /';
  const segments = path.split('/').slice(1);
  for (const segment of segments) {
    if (!PATH_SEGMENT.test(segment)) return `"${path}" is not a valid route pattern (segment "${segment}")`;
  }
  return null;
}

/**
 * Validates a manifest and returns every problem found, each with its file and path
 * (`app.json: permissions[2].key: ...`); an empty list means valid. Checks the shape against
 * the published JSON Schema, the permission-key rules, event names and scopes, that every JSON
 * Schema compiles and the settings defaults satisfy theirs, and (given `code`) that the
 * authorization table and the code's routes, checks, subscriptions and search hooks match.
 */
export function validateManifest(manifest: unknown, options: ValidateManifestOptions): ManifestProblem[] {
  const file = options.file ?? 'app.json';
  const problems: ManifestProblem[] = [];
  const report = (path: string, message: string) => problems.push({ file, path, message });

  if (!isObject(manifest)) {
    report('', 'must be a JSON object');
    return problems;
  }
  if (!validateShape(manifest)) {
    // Chain steps are checked below with messages of their own; the schema's union errors are noise.
    const errors = (validateShape.errors ?? []).filter((error) => !/^\/authorization\/\d+\/chain\/\d+/.test(error.instancePath));
    for (const problem of formatSchemaErrors(errors)) {
      report(problem.path, problem.message === 'is not allowed here' && !problem.path.includes('.') && !problem.path.includes('[') ? 'is not a manifest field' : problem.message);
    }
  }

  const slug = stringOr(manifest.slug);
  const publisher = stringOr(manifest.publisher);
  if (!publisher && !options.firstParty) {
    report('publisher', 'is required: only apps the runtime configuration loads as first-party may omit it; a third-party app is ext.{publisher}.{slug}');
  }
  if (slug && !publisher && RESERVED_SLUGS.has(slug)) report('slug', `"${slug}" is reserved for the platform`);
  if (Array.isArray(manifest.same_origin_pages) && manifest.same_origin_pages.length > 0) {
    // A listed page the public folder does not hold is the app's built front-end (docs/ui.md), so "public" is not required.
    if (publisher || !options.firstParty) report('same_origin_pages', 'is for first-party apps only: a third-party app\'s pages always run sandboxed, without the session');
  }
  const meterNames = new Map<string, number>();
  arrayOf(manifest.meters).forEach((meter, index) => {
    const name = isObject(meter) ? stringOr(meter.name) : null;
    if (name === null) return;
    if (meterNames.has(name)) report(`meters[${index}].name`, `"${name}" is declared twice (also meters[${meterNames.get(name)}])`);
    else meterNames.set(name, index);
  });
  const namespace = slug ? appNamespace(slug, publisher) : null;
  const remote = typeof manifest.address === 'string';

  // Permissions.
  const declared = new Map<string, number>();
  arrayOf(manifest.permissions).forEach((permission, index) => {
    const key = isObject(permission) ? stringOr(permission.key) : null;
    if (key === null) return;
    const path = `permissions[${index}].key`;
    if (namespace) {
      const problem = permissionKeyProblem(key, namespace);
      if (problem) report(path, problem);
    }
    if (declared.has(key)) report(path, `"${key}" is declared twice (also permissions[${declared.get(key)}])`);
    else declared.set(key, index);
  });
  // Without a permissions list (already reported) every reference would be noise.
  const isDeclared = (key: string) => !Array.isArray(manifest.permissions) || declared.has(key);

  // The authorization table.
  const codeChecks = options.code ? new Set(options.code.checks) : null;
  const checkStep = (step: unknown, path: string, allowGroup: boolean) => {
    if (typeof step === 'string') {
      if (!isDeclared(step)) report(path, `"${step}" is not a permission this app declares`);
      return;
    }
    if (isObject(step) && 'check' in step && !('any_of' in step)) {
      const name = stringOr(step.check);
      const extra = Object.keys(step).filter((field) => field !== 'check' && field !== 'message');
      if (extra.length) report(path, `${extra.map((field) => `"${field}"`).join(', ')} is not allowed in a named check ({"check": name, "message": text})`);
      if (name === null || !SEGMENT_PATTERN.test(name)) report(`${path}.check`, 'must be the name of a check: lowercase words joined by _');
      else if (codeChecks && !codeChecks.has(name)) report(`${path}.check`, `"${name}" is not a check of the app's code (checks: ${[...codeChecks].join(', ') || 'none'})`);
      if ('message' in step && (typeof step.message !== 'string' || step.message.length === 0)) report(`${path}.message`, 'must be a non-empty string');
      return;
    }
    if (allowGroup && isObject(step) && 'any_of' in step) {
      const extra = Object.keys(step).filter((field) => field !== 'any_of' && field !== 'message');
      if (extra.length) report(path, `${extra.map((field) => `"${field}"`).join(', ')} is not allowed in an any-of group ({"any_of": [...], "message": text})`);
      if (!Array.isArray(step.any_of) || step.any_of.length < 2) report(`${path}.any_of`, 'must list at least two alternatives');
      arrayOf(step.any_of).forEach((inner, index) => checkStep(inner, `${path}.any_of[${index}]`, false));
      if ('message' in step && (typeof step.message !== 'string' || step.message.length === 0)) report(`${path}.message`, 'must be a non-empty string');
      return;
    }
    report(path, allowGroup ? 'must be a permission key, {"check": name} or {"any_of": [...]}' : 'must be a permission key or {"check": name}');
  };

  const tableKeys = new Map<string, number>();
  const authorization = arrayOf(manifest.authorization);
  if (remote && authorization.length > 0) report('authorization', 'must be empty: a remote app (address) serves no routes through the platform');
  authorization.forEach((entry, index) => {
    if (!isObject(entry)) return;
    const method = stringOr(entry.method);
    const path = stringOr(entry.path);
    if (path !== null) {
      const problem = routePathProblem(path);
      if (problem) report(`authorization[${index}].path`, problem);
    }
    if (method && path) {
      const key = routeKey(method, path);
      if (tableKeys.has(key)) report(`authorization[${index}]`, `${method} ${path} has two entries (also authorization[${tableKeys.get(key)}])`);
      else tableKeys.set(key, index);
    }
    const label = `${method ?? '?'} ${path ?? '?'}`;
    const hasChain = Array.isArray(entry.chain) && entry.chain.length > 0;
    if (entry.public === true && 'chain' in entry) report(`authorization[${index}]`, `${label} is public and has a chain; a public route has no chain`);
    else if (!hasChain && entry.public !== true && !('chain' in entry)) report(`authorization[${index}]`, `${label} has no chain of checks; give it one, or mark the route "public": true`);
    arrayOf(entry.chain).forEach((step, stepIndex) => checkStep(step, `authorization[${index}].chain[${stepIndex}]`, true));
  });

  if (options.code) {
    const codeKeys = new Set<string>();
    for (const route of options.code.routes) {
      const key = routeKey(route.method, route.path);
      codeKeys.add(key);
      const index = tableKeys.get(key);
      if (index === undefined) {
        report('authorization', `has no entry for ${route.method.toUpperCase()} ${route.path}, a route of the app's code; add one with a chain, or "public": true`);
        continue;
      }
      const entryPublic = isObject(authorization[index]) && (authorization[index] as Json).public === true;
      if (entryPublic && !route.public) report(`authorization[${index}]`, `${key} is public here but its code route is not; declare it with definePublicRoute`);
      if (!entryPublic && route.public) report(`authorization[${index}]`, `${key} is declared with definePublicRoute in the code; mark it "public": true here`);
      // The code's chain is the one written by hand; the table is its copy (`wpk manifest`).
      if (!route.public && route.chain !== undefined && JSON.stringify((authorization[index] as Json).chain) !== JSON.stringify(route.chain)) {
        report(`authorization[${index}].chain`, `${key} differs from the chain its code route declares (${JSON.stringify(route.chain)}); app.json is stale: run wpk manifest`);
      }
    }
    for (const [key, index] of tableKeys) {
      if (!codeKeys.has(key)) report(`authorization[${index}]`, `${key} matches no route of the app's code`);
    }
    if (remote) report('address', 'is for remote apps only; an app whose code the runtime loads is served in-process');
  }

  // Events emitted.
  const emitted = new Map<string, number>();
  arrayOf(manifest.events).forEach((event, index) => {
    if (!isObject(event)) return;
    const action = stringOr(event.action);
    if (action !== null) {
      const scope = slug ? emitScopeProblem(action, { slug, publisher, firstParty: options.firstParty }) : null;
      const problem = action.startsWith('system.') ? scope : (eventNameProblem(action) ?? scope);
      if (problem) report(`events[${index}].action`, problem);
      if (emitted.has(action)) report(`events[${index}].action`, `"${action}" is declared twice (also events[${emitted.get(action)}])`);
      else emitted.set(action, index);
    }
    if (isObject(event.schema)) {
      const compiled = compileJsonSchema(event.schema);
      if ('error' in compiled) report(`events[${index}].schema`, `does not compile: ${compiled.error}`);
      else if (event.schema.type !== 'object') report(`events[${index}].schema.type`, 'must be "object": a payload is an object');
      const properties = isObject(event.schema.properties) ? event.schema.properties : null;
      arrayOf(event.redact).forEach((field, fieldIndex) => {
        if (typeof field !== 'string' || !properties) return;
        const top = field.split('.')[0];
        if (!(top in properties)) report(`events[${index}].redact[${fieldIndex}]`, `"${field}" is not a property of the payload schema`);
      });
    }
  });

  // Subscriptions.
  const subscribed = new Map<string, number>();
  const handlerPaths = new Map<string, number>();
  arrayOf(manifest.subscriptions).forEach((subscription, index) => {
    if (!isObject(subscription)) return;
    const action = stringOr(subscription.action);
    if (action !== null) {
      const problem = eventNameProblem(action);
      if (problem) report(`subscriptions[${index}].action`, problem);
      if (subscribed.has(action)) report(`subscriptions[${index}].action`, `"${action}" is subscribed twice (also subscriptions[${subscribed.get(action)}])`);
      else subscribed.set(action, index);
    }
    const handler = stringOr(subscription.handler);
    if (handler !== null) {
      const problem = routePathProblem(handler);
      if (problem) report(`subscriptions[${index}].handler`, problem);
      if (handlerPaths.has(handler)) report(`subscriptions[${index}].handler`, `"${handler}" is used twice (also subscriptions[${handlerPaths.get(handler)}])`);
      else handlerPaths.set(handler, index);
    }
  });
  if (options.code && !remote) {
    const handlers = new Set(options.code.subscriptions);
    for (const [action, index] of subscribed) {
      if (!handlers.has(action)) report(`subscriptions[${index}]`, `"${action}" has no handler in the app's code (defineApp subscriptions)`);
    }
    for (const action of handlers) {
      if (!subscribed.has(action)) report('subscriptions', `has no entry for "${action}", which the app's code handles`);
    }
  }

  // Searchable types.
  const types = new Map<string, number>();
  arrayOf(manifest.search).forEach((entry, index) => {
    if (!isObject(entry)) return;
    const type = stringOr(entry.type);
    if (type !== null) {
      if (types.has(type)) report(`search[${index}].type`, `"${type}" is declared twice (also search[${types.get(type)}])`);
      else types.set(type, index);
    }
    arrayOf(entry.permissions).forEach((key, keyIndex) => {
      if (typeof key === 'string' && !isDeclared(key)) report(`search[${index}].permissions[${keyIndex}]`, `"${key}" is not a permission this app declares`);
    });
  });
  if (options.code) {
    for (const type of options.code.search) {
      if (!types.has(type)) report('search', `has no entry for type "${type}", which the app's code indexes`);
    }
  }

  // Settings.
  if (isObject(manifest.settings) && isObject(manifest.settings.schema)) {
    const compiled = compileJsonSchema(manifest.settings.schema);
    if ('error' in compiled) report('settings.schema', `does not compile: ${compiled.error}`);
    else {
      if (manifest.settings.schema.type !== 'object') report('settings.schema.type', 'must be "object": settings are one JSON object');
      if (isObject(manifest.settings.defaults) && !compiled.validate(manifest.settings.defaults)) {
        for (const problem of formatSchemaErrors(compiled.validate.errors, 'settings.defaults')) report(problem.path, `${problem.message} (the defaults must satisfy settings.schema)`);
      }
    }
  }

  return problems;
}

/** One line for a problem: `app.json: permissions[2].key: ...`. */
export function formatManifestProblem(problem: ManifestProblem): string {
  return problem.path ? `${problem.file}: ${problem.path}: ${problem.message}` : `${problem.file}: ${problem.message}`;
}

/** The manifest as typed, once `validateManifest` returned no problem. */
export function asManifest(value: unknown): AppManifest {
  return value as AppManifest;
}
