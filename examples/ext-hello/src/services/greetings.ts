import { NotFoundError, type BaseContext, type PageRequest, type SearchDocument } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Greeting, Models } from '../models/index.js';

/** A greeting as the API answers it. */
export interface GreetingView {
  id: string;
  text: string;
  sender_mrn: string;
  sender_name: string;
  recipient_mrn: string | null;
  created_at: string;
}

const mrn = (memberId: string) => `mrn:account:member:${memberId}`;

/** The public shape of a greeting. */
export function present(greeting: Greeting): GreetingView {
  return {
    id: greeting.id,
    text: greeting.text,
    sender_mrn: mrn(greeting.sender_id),
    sender_name: greeting.sender_name,
    recipient_mrn: greeting.recipient_id ? mrn(greeting.recipient_id) : null,
    created_at: new Date(greeting.created_at).toISOString(),
  };
}

/** The search document of a greeting (type `greeting` of app.json's search). */
export function greetingDocument(greeting: Greeting): SearchDocument {
  return { type: 'greeting', id: greeting.id, badge: '', title: greeting.text, subtitle: `from ${greeting.sender_name}`, url: `/hello/greetings/${greeting.id}`, names: [greeting.text], details: [greeting.sender_name] };
}

/** Who sends: a member id and the name shown. */
export interface Sender {
  id: string;
  name: string;
}

/**
 * Sends a greeting: the text is prefixed with the workspace's configured prefix, stored, indexed
 * for search, and `ext.acme.hello.greeting.sent` is staged (it leaves only if the request succeeds).
 */
export async function sendGreeting(ctx: BaseContext<Models, AppTypes>, sender: Sender, input: { text: string; recipient_id?: string }): Promise<GreetingView> {
  const prefix = ctx.settings.prefix;
  const text = `${prefix}, ${input.text}`.slice(0, 300);
  const greeting = await ctx.db.greetings.create({ sender_id: sender.id, sender_name: sender.name, recipient_id: input.recipient_id ?? null, text });
  const view = present(greeting);
  ctx.events.stage('ext.acme.hello.greeting.sent', { greeting_id: view.id, sender_mrn: view.sender_mrn, recipient_mrn: view.recipient_mrn, text: view.text });
  ctx.search.upsert(greetingDocument(greeting));
  return view;
}

/** One page of greetings, newest first. */
export async function listGreetings(ctx: BaseContext<Models, AppTypes>, page: PageRequest): Promise<{ rows: GreetingView[]; total: number }> {
  const { rows, count } = await ctx.db.greetings.findAndCountAll({ order: [['created_at', 'DESC'], ['id', 'ASC']], limit: page.limit, offset: page.offset });
  return { rows: rows.map(present), total: count };
}

/** One greeting; 404 when this workspace has none with that id. */
export async function getGreeting(ctx: BaseContext<Models, AppTypes>, id: string): Promise<GreetingView> {
  const greeting = await ctx.db.greetings.findById(id);
  if (!greeting) throw new NotFoundError(`No greeting ${id}`);
  return present(greeting);
}

/** Deletes a greeting and takes it out of the search index. */
export async function deleteGreeting(ctx: BaseContext<Models, AppTypes>, id: string): Promise<void> {
  const removed = await ctx.db.greetings.destroy({ where: { id } });
  if (removed === 0) throw new NotFoundError(`No greeting ${id}`);
  ctx.search.remove('greeting', id);
}
