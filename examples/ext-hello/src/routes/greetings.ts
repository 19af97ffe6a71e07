import { defineRoute, Joi } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { deleteGreeting, getGreeting, listGreetings, sendGreeting } from '../services/greetings.js';

const id = Joi.object({ greeting_id: Joi.string().guid().required() });

/** The greetings routes (served under /ext/acme/hello). Access is decided before they run. */
export const greetingRoutes = [
  defineRoute<Models, AppTypes>({
    method: 'GET',
    path: '/greetings',
    chain: ['ext.acme.hello.greetings.read'],
    description: 'Lists greetings, newest first.',
    handler: async (_request, ctx) => {
      const { rows, total } = await listGreetings(ctx, ctx.page);
      return ctx.respond.collection(rows, total);
    },
  }),
  defineRoute<Models, AppTypes>({
    method: 'GET',
    path: '/greetings/{greeting_id}',
    chain: ['ext.acme.hello.greetings.read'],
    description: 'One greeting.',
    validate: { params: id },
    handler: async (request, ctx) => ctx.respond.single(await getGreeting(ctx, request.params.greeting_id)),
  }),
  defineRoute<Models, AppTypes>({
    method: 'POST',
    path: '/greetings',
    chain: ['ext.acme.hello.greetings.send'],
    description: 'Sends a greeting, optionally to one member.',
    validate: { payload: Joi.object({ text: Joi.string().trim().min(1).max(200).required(), recipient_id: Joi.string().guid() }) },
    handler: async (request, ctx) => ctx.respond.single(await sendGreeting(ctx, { id: ctx.member.id, name: ctx.member.name }, request.payload)),
  }),
  defineRoute<Models, AppTypes>({
    method: 'DELETE',
    path: '/greetings/{greeting_id}',
    chain: [{ any_of: [{ check: 'greeting_sender' }, 'ext.acme.hello.greetings.delete'], message: 'Cannot delete this greeting' }],
    description: "Deletes a greeting (the sender's own, or anyone's with greetings.delete).",
    validate: { params: id },
    handler: async (request, ctx) => {
      await deleteGreeting(ctx, request.params.greeting_id);
      return ctx.respond.single({ id: request.params.greeting_id, deleted: true });
    },
  }),
];
