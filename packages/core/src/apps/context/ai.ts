import { InvalidError, type AppAi, type AppChatMessage } from '@wpk/sdk';
import type { ContextInputs } from './inputs.js';

const ROLES = new Set(['system', 'user', 'assistant']);

/** `ctx.ai`: the configured chat model behind its checks, or null when the deployment has none. */
export function aiOf({ platform }: ContextInputs): AppAi | null {
  const model = platform.model;
  if (!model) return null;
  return {
    model: model.name,
    async complete(messages: readonly AppChatMessage[]) {
      if (!Array.isArray(messages) || messages.length === 0 || messages.length > 50) throw new InvalidError('ctx.ai.complete: 1 to 50 messages');
      for (const message of messages) {
        if (!ROLES.has(message?.role) || typeof message.content !== 'string' || message.content.length === 0 || message.content.length > 100_000) {
          throw new InvalidError('ctx.ai.complete: each message needs a role (system, user or assistant) and 1-100000 characters of content');
        }
      }
      return model.completeWithUsage(messages.map((message) => ({ role: message.role, content: message.content })));
    },
  };
}
