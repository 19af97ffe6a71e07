import type { AppRequest } from '@wpk/sdk';
import type { AnyCtx } from '../kit.js';
import type { Envelope, Recipient } from '../models/index.js';

/** Where a step came from: the client's address and user agent (null for the platform's own steps). */
export interface Client {
  ip: string | null;
  user_agent: string | null;
}

/** The platform itself (a delivered event, a delayed reminder or expiry). */
export const SYSTEM: Client = { ip: null, user_agent: null };

/** The address and user agent of a request. */
export function clientOf(request: AppRequest<unknown>): Client {
  const agent = request.headers['user-agent'];
  return { ip: request.clientAddress?.replace(/^::ffff:/, '').slice(0, 100) || null, user_agent: (Array.isArray(agent) ? agent[0] : agent)?.slice(0, 500) || null };
}

/** Writes one audit row: every step of an envelope is one. */
export async function audit(ctx: AnyCtx, envelope: Envelope, recipient: Recipient | null, action: string, actor: string, client: Client, details: Record<string, unknown> = {}): Promise<void> {
  await ctx.db.auditEvents.create({ envelope_id: envelope.id, recipient_id: recipient?.id ?? null, action, actor: actor.slice(0, 300), ip: client.ip, user_agent: client.user_agent, details, at: ctx.now() });
}

/** An envelope's audit trail, oldest first. */
export function trail(ctx: AnyCtx, envelopeId: string) {
  return ctx.db.auditEvents.findAll({ where: { envelope_id: envelopeId }, order: [['at', 'ASC'], ['id', 'ASC']] });
}
