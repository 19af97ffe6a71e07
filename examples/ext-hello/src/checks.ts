import type { AppCheck } from '@wpk/sdk';
import type { Models } from './models/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `greeting_sender`: the caller sent this greeting. Checks run before validation, so the id is
 * checked here before it reaches the database.
 */
const greetingSender: AppCheck<Models> = async (request, ctx) => {
  const id = request.params.greeting_id;
  if (!UUID.test(id)) return false;
  const greeting = await ctx.db.greetings.findById(id);
  return greeting !== null && greeting.sender_id === ctx.member.id;
};

/** The named checks of the authorization table. */
export const checks = { greeting_sender: greetingSender };
