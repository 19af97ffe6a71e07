import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import { APP_HEADER, SIGNATURE_HEADER, verifySignature } from '@wpk/sdk';
import type { Outbox, OutboxRow } from '../outbox.js';
import type { EventRegistry } from '../registry.js';
import { signingSecretFor } from '../secrets.js';

/** Path of the broker's ingress for emitters that run outside the platform. */
export const INGRESS_PATH = '/_broker/events';

/** Decides whether `app` may emit into `workspaceId` (for instance: is it installed there?). */
export type EmissionGuard = (input: { app: string; workspaceId: string }) => Promise<boolean>;

export interface IngressDeps {
  registry: EventRegistry;
  outbox: Outbox;
  sequelize: Sequelize;
  brokerSecret: string;
  logger: Logger;
  guard: () => EmissionGuard | undefined;
  /** Wakes the local broker after a commit. */
  onCommitted: () => void;
}

const MAX_EVENTS = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * `POST /_broker/events`: an app that runs elsewhere (a remote ext app) emits here. The call is
 * authenticated per app: `x-broker-app` names it and `x-broker-signature` is the hex HMAC-SHA256
 * of the body with that app's secret. The body is one event or `{events: [...]}` (up to 100),
 * each `{workspace_id, action, payload, metadata?, dedupe_key?, deliver_at?}`. Every event must be
 * one the app declares; the events enter the outbox together and the answer is `{ids}`.
 */
export function ingressRoute(deps: IngressDeps): ServerRoute {
  const fail = (h: ResponseToolkit, status: number, error: string) => h.response({ error }).code(status);
  return {
    method: 'POST',
    path: INGRESS_PATH,
    options: {
      auth: false,
      app: { wpk: { kind: 'system', scope: 'any' } },
      payload: { parse: false, output: 'data', maxBytes: 1024 * 1024 },
      handler: async (request: Request, h: ResponseToolkit) => {
        const app = request.headers[APP_HEADER];
        const participant = typeof app === 'string' ? deps.registry.participant(app) : undefined;
        if (!participant || typeof app !== 'string') return fail(h, 401, `Unknown app in ${APP_HEADER}`);
        const body = request.payload as Buffer;
        if (!verifySignature(body, request.headers[SIGNATURE_HEADER] as string | undefined, signingSecretFor(deps.brokerSecret, participant))) {
          return fail(h, 401, 'Invalid broker signature');
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          return fail(h, 400, 'body is not JSON');
        }
        const list = isObject(parsed) && Array.isArray(parsed.events) ? parsed.events : [parsed];
        if (list.length === 0 || list.length > MAX_EVENTS) return fail(h, 400, `events must hold 1-${MAX_EVENTS} events`);
        const events: Array<{ workspaceId: string; action: string; payload: Record<string, unknown>; metadata: Record<string, unknown>; dedupeKey?: string; deliverAt?: Date }> = [];
        for (const [index, item] of list.entries()) {
          const at = isObject(parsed) && Array.isArray(parsed.events) ? `events[${index}].` : '';
          if (!isObject(item)) return fail(h, 400, `${at || 'body '}must be an object`);
          if (typeof item.workspace_id !== 'string' || !UUID.test(item.workspace_id)) return fail(h, 400, `${at}workspace_id must be a UUID`);
          if (typeof item.action !== 'string') return fail(h, 400, `${at}action must be a string`);
          if (!isObject(item.payload)) return fail(h, 400, `${at}payload must be an object`);
          if (item.metadata !== undefined && item.metadata !== null && !isObject(item.metadata)) return fail(h, 400, `${at}metadata must be an object`);
          if (item.dedupe_key !== undefined && item.dedupe_key !== null && (typeof item.dedupe_key !== 'string' || item.dedupe_key.length < 1 || item.dedupe_key.length > 200)) {
            return fail(h, 400, `${at}dedupe_key must be a string of 1-200 characters`);
          }
          let deliverAt: Date | undefined;
          if (item.deliver_at !== undefined && item.deliver_at !== null) {
            deliverAt = typeof item.deliver_at === 'string' ? new Date(item.deliver_at) : new Date(NaN);
            if (Number.isNaN(deliverAt.getTime())) return fail(h, 400, `${at}deliver_at must be an ISO 8601 instant`);
          }
          const problem = deps.registry.emitProblem(app, item.action);
          if (problem) return fail(h, 403, problem);
          events.push({
            workspaceId: item.workspace_id,
            action: item.action,
            payload: item.payload,
            metadata: isObject(item.metadata) ? item.metadata : {},
            dedupeKey: typeof item.dedupe_key === 'string' ? item.dedupe_key : undefined,
            deliverAt,
          });
        }
        const workspaceIds = [...new Set(events.map((event) => event.workspaceId))];
        const found = await deps.sequelize.query<{ id: string }>(`SELECT id FROM platform.workspaces WHERE id IN (:ids)`, { type: QueryTypes.SELECT, replacements: { ids: workspaceIds } });
        const missing = workspaceIds.filter((id) => !found.some((row) => row.id === id));
        if (missing.length > 0) return fail(h, 404, `No workspace ${missing[0]}`);
        const guard = deps.guard();
        for (const workspaceId of workspaceIds) {
          if (guard && !(await guard({ app, workspaceId }))) return fail(h, 403, `${app} may not emit into workspace ${workspaceId}`);
        }
        const rows: OutboxRow[] = events.map((event) =>
          deps.outbox.prepare(null, { emitter: app, action: event.action, payload: event.payload, metadata: { ...event.metadata, workspace_id: event.workspaceId }, dedupeKey: event.dedupeKey, deliverAt: event.deliverAt }),
        );
        await deps.sequelize.transaction(() => deps.outbox.insert(rows));
        deps.onCommitted();
        deps.logger.debug({ app, events: rows.length }, 'events received at the broker ingress');
        return h.response({ ids: rows.map((row) => row.id) }).code(200);
      },
    },
  };
}
