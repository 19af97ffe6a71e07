/**
 * Drives a running platform through the typed client, as an API consumer would: run `wpk dev`,
 * copy the demo owner's API key it prints, then
 *
 *   WPK_API_KEY=slk_... npx --yes pnpm@12.21.0 --filter @acme/wpk-api-client-example start
 *
 * WPK_URL (default http://127.0.0.1:3000) is where the server listens; WPK_WORKSPACE (default
 * demo) is the workspace's subdomain, reached through the Host header (no DNS needed).
 */
import { ApiError, asCollection, asSingle, createClient } from '@wpk/client';

const apiKey = process.env.WPK_API_KEY;
if (!apiKey) {
  console.error('Set WPK_API_KEY to an API key (wpk dev prints the demo owner\'s).');
  process.exit(1);
}

const client = createClient({ baseUrl: process.env.WPK_URL ?? 'http://127.0.0.1:3000', workspace: process.env.WPK_WORKSPACE ?? 'demo', apiKey });

try {
  const me = asSingle<{ member: { name: string; email: string }; workspace: { name: string } }>(await client.account.getMe());
  console.log(`${me.data.member.name} <${me.data.member.email}> in ${me.data.workspace.name} (X-Api-Version ${client.apiVersion})`);

  const board = asSingle<{ id: string; title: string }>(await client.tasks.postBoards({ body: { title: `Launch ${new Date().toISOString().slice(0, 16)}` } }));
  console.log(`created board ${board.data.title} (${board.data.id})`);

  for (const title of ['Write the press release', 'Book the venue', 'Order the banners']) {
    const task = asSingle<{ id: string; title: string }>(await client.tasks.postTasks({ body: { title, board_id: board.data.id, priority: 'high' } }));
    console.log(`  task ${task.data.title} (${task.data.id})`);
  }

  // Walks every page (two tasks a page) by following links.next.
  for await (const task of client.paginate('getTasks', { query: { board_id: board.data.id, per_page: 2 } })) {
    console.log(`  listed ${(task as { title: string }).title}`);
  }

  const results = asCollection<{ type: string; title: string }>(await client.account.postSearch({ body: { app: 'tasks', q: 'venue' } }));
  console.log(`search "venue": ${results.data.map((result) => `${result.type} ${result.title}`).join(', ') || 'nothing'}`);
} catch (error) {
  if (error instanceof ApiError) {
    console.error(`the server answered ${error.status}: ${error.error}`);
    process.exit(1);
  }
  throw error;
}
