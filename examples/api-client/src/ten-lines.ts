import { createClient, isApiError } from '@wpk/client';

const client = createClient({ baseUrl: process.env.WPK_URL ?? 'http://127.0.0.1:3000', workspace: process.env.WPK_WORKSPACE ?? 'demo', apiKey: process.env.WPK_API_KEY });
const me = await client.account.getMe();
console.log(`${me.data.member.email} in ${me.data.workspace.name}`);
const board = await client.tasks.postBoards({ body: { title: 'Launch' } });
await client.tasks.postTasks({ body: { title: 'Book the venue', board_id: board.data.id } });
for await (const task of client.paginate('getTasks', { query: { board_id: board.data.id } })) console.log(`task: ${task.title}`);
await client.tasks.postTasks({ body: { title: '' } }).catch((error: unknown) => {
  if (isApiError(error, 400)) console.log(`refused: ${error.error}`);
  else throw error;
});
