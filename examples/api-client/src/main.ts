/**
 * Drives a running platform through the typed client, as an API consumer would: run `wpk dev`,
 * then, with the demo owner's API key it keeps in .wpk/dev/dev-api-key (the box it prints shows it),
 *
 *   WPK_API_KEY=$(cat .wpk/dev/dev-api-key) npx --yes pnpm@12.21.0 --filter @acme/wpk-api-client-example start
 *
 * WPK_URL (default http://127.0.0.1:3000) is where the server listens; WPK_WORKSPACE (default
 * demo) is the workspace's subdomain, reached through the Host header (no DNS needed). Every
 * answer is typed from the OpenAPI document: no casts.
 */
import { ApiError, createClient } from '@wpk/client';

const apiKey = process.env.WPK_API_KEY;
if (!apiKey) {
  console.error('Set WPK_API_KEY to an API key (wpk dev keeps the demo owner\'s in .wpk/dev/dev-api-key).');
  process.exit(1);
}

const client = createClient({ baseUrl: process.env.WPK_URL ?? 'http://127.0.0.1:3000', workspace: process.env.WPK_WORKSPACE ?? 'demo', apiKey });

try {
  const me = await client.account.getMe();
  console.log(`${me.data.member.name} <${me.data.member.email}> in ${me.data.workspace.name} (X-Api-Version ${client.apiVersion})`);

  const board = await client.tasks.postBoards({ body: { title: `Launch ${new Date().toISOString().slice(0, 16)}` } });
  console.log(`created board ${board.data.title} (${board.data.id}) with lanes ${board.data.lanes.join(', ')}`);

  for (const title of ['Write the press release', 'Book the venue', 'Order the banners']) {
    const task = await client.tasks.postTasks({ body: { title, board_id: board.data.id, priority: 'high' } });
    console.log(`  task ${task.data.title} (${task.data.id})`);
  }

  // Walks every page (two tasks a page) by following links.next.
  for await (const task of client.paginate('getTasks', { query: { board_id: board.data.id, per_page: 2 } })) {
    console.log(`  listed ${task.title}`);
  }

  const results = await client.account.postSearch({ body: { app: 'tasks', q: 'venue' } });
  console.log(`search "venue": ${results.data.map((result) => `${result.type} ${result.title}`).join(', ') || 'nothing'}`);
} catch (error) {
  if (error instanceof ApiError) {
    console.error(`the server answered ${error.status}: ${error.error}`);
    process.exit(1);
  }
  throw error;
}
