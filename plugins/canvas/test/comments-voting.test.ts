import test from 'ava';
import { newBoard, newSticky, startCanvasWorld } from './helpers/world.js';

const world = await startCanvasWorld('canvasvotes');
const [ann, bob] = await world.members(2);
const boardId = await newBoard(ann);
const noteA = await newSticky(ann, boardId, { text: 'A' });
const noteB = await newSticky(ann, boardId, { text: 'B' });
world.takeEvents();
test.after.always(() => world.close());

test.serial('comments on objects: written, listed, edited by their author only, resolved and reopened by anyone, deleted', async (t) => {
  const created = await ann.post(`/canvas/boards/${boardId}/comments`, { object_id: noteA, body: ' Needs numbers ' });
  t.is(created.status, 200);
  const comment = created.body.data;
  t.like(comment, { board_id: boardId, object_id: noteA, body: 'Needs numbers', author_id: ann.id, author_mrn: ann.mrn, resolved: false, edited_at: null, resolved_at: null, resolved_by: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.comment.created', payload: { board_id: boardId, comment_id: comment.id, object_id: noteA, author_mrn: ann.mrn } }]);
  t.deepEqual((await ann.post(`/canvas/boards/${boardId}/comments`, { object_id: 'gone', body: 'x' })).body, { error: `object_id: no object gone on board ${boardId}` });
  t.deepEqual((await ann.post(`/canvas/boards/${boardId}/comments`, { object_id: noteA, body: '  ' })).body, { error: 'body is not allowed to be empty', field: 'body' });
  const second = (await bob.post(`/canvas/boards/${boardId}/comments`, { object_id: noteB, body: 'Agree' })).body.data;
  world.takeEvents();

  t.deepEqual((await ann.get(`/canvas/boards/${boardId}/comments`)).body.data.map((row: { id: string }) => row.id), [comment.id, second.id]);
  t.deepEqual((await ann.get(`/canvas/boards/${boardId}/comments?object_id=${noteB}`)).body.data.map((row: { id: string }) => row.id), [second.id]);

  t.deepEqual((await bob.patch(`/canvas/boards/${boardId}/comments/${comment.id}`, { body: 'Hijack' })).body, { error: 'Only its author may edit a comment' });
  const edited = await ann.patch(`/canvas/boards/${boardId}/comments/${comment.id}`, { body: 'Needs numbers by Friday' });
  t.is(edited.body.data.body, 'Needs numbers by Friday');
  t.truthy(edited.body.data.edited_at);
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.comment.updated', payload: { board_id: boardId, comment_id: comment.id, changed_fields: ['body'], resolved: false, updated_by: ann.mrn } }]);

  const resolved = await bob.patch(`/canvas/boards/${boardId}/comments/${comment.id}`, { resolved: true });
  t.like(resolved.body.data, { resolved: true, resolved_by: bob.id });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.comment.updated', payload: { board_id: boardId, comment_id: comment.id, changed_fields: ['resolved'], resolved: true, updated_by: bob.mrn } }]);
  t.is((await bob.patch(`/canvas/boards/${boardId}/comments/${comment.id}`, { resolved: true })).status, 200);
  t.deepEqual(world.takeEvents(), [], 'resolving a resolved comment changes nothing');
  t.deepEqual((await ann.get(`/canvas/boards/${boardId}/comments?resolved=true`)).body.data.map((row: { id: string }) => row.id), [comment.id]);
  t.deepEqual((await ann.get(`/canvas/boards/${boardId}/comments?resolved=false`)).body.data.map((row: { id: string }) => row.id), [second.id]);
  const reopened = await ann.patch(`/canvas/boards/${boardId}/comments/${comment.id}`, { resolved: false });
  t.like(reopened.body.data, { resolved: false, resolved_at: null, resolved_by: null });
  world.takeEvents();

  t.deepEqual((await bob.delete(`/canvas/boards/${boardId}/comments/${comment.id}`)).body, { error: 'Cannot delete this comment' });
  const deleted = await ann.delete(`/canvas/boards/${boardId}/comments/${comment.id}`);
  t.deepEqual(deleted.body.data, { id: comment.id, deleted: true });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.comment.deleted', payload: { board_id: boardId, comment_id: comment.id, deleted_by: ann.mrn } }]);
  t.deepEqual((await ann.delete(`/canvas/boards/${boardId}/comments/${comment.id}`)).body, { error: `Comment ${comment.id} not found on board ${boardId}` });
  const moderator = await world.member(['canvas.boards.read', 'canvas.comments.manage']);
  t.is((await moderator.delete(`/canvas/boards/${boardId}/comments/${second.id}`)).status, 200, 'canvas.comments.manage deletes anyone\'s comment');
  const otherBoard = await newBoard(ann);
  t.is((await ann.patch(`/canvas/boards/${otherBoard}/comments/${second.id}`, { resolved: true })).status, 404, 'a comment is reached through its own board');
});

test.serial('a voting session: a budget per member, votes cast and taken back, results only once closed', async (t) => {
  world.takeEvents();
  const started = await ann.post(`/canvas/boards/${boardId}/vote-sessions`, { title: 'Top ideas', votes_per_member: 2 });
  t.is(started.status, 200);
  const session = started.body.data;
  t.like(session, { title: 'Top ideas', votes_per_member: 2, allow_multiple: false, status: 'open', started_by: ann.id, my_votes: [], votes_left: 2, results: null, total_votes: null, voter_count: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.voting.started', payload: { board_id: boardId, session_id: session.id, title: 'Top ideas', votes_per_member: 2, started_by: ann.mrn } }]);
  t.deepEqual((await ann.post(`/canvas/boards/${boardId}/vote-sessions`, {})).body, { error: `Board ${boardId} already has an open voting session (${session.id}): close it first` });

  const votes = `/canvas/boards/${boardId}/vote-sessions/${session.id}/votes`;
  const first = await bob.post(votes, { object_id: noteA });
  t.like(first.body.data, { my_votes: [{ object_id: noteA, votes: 1 }], votes_left: 1, results: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.vote.added', payload: { board_id: boardId, session_id: session.id, object_id: noteA, voter_mrn: bob.mrn } }]);
  t.deepEqual((await bob.post(votes, { object_id: noteA })).body, { error: `You already voted for ${noteA}; this session allows one vote per object` });
  t.deepEqual((await bob.post(votes, { object_id: 'nothing' })).body, { error: `object_id: no object nothing on board ${boardId}` });
  t.like((await bob.post(votes, { object_id: noteB })).body.data, { votes_left: 0 });
  t.deepEqual((await bob.post(votes, { object_id: noteB })).body, { error: 'You have used all 2 of your votes in this session: take one back first' });
  await ann.post(votes, { object_id: noteB });
  world.takeEvents();

  const removed = await bob.delete(`${votes}/${noteA}`);
  t.like(removed.body.data, { my_votes: [{ object_id: noteB, votes: 1 }], votes_left: 1 });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.vote.removed', payload: { board_id: boardId, session_id: session.id, object_id: noteA, voter_mrn: bob.mrn } }]);
  t.deepEqual((await bob.delete(`${votes}/${noteA}`)).body, { error: `You have no vote on ${noteA} in this session` });
  t.like((await bob.get(`/canvas/boards/${boardId}/vote-sessions/${session.id}`)).body.data, { results: null, votes_left: 1 }, 'no results while open');

  const voter = await world.member(['canvas.boards.read', 'canvas.votes.create']);
  t.deepEqual((await voter.post(`/canvas/boards/${boardId}/vote-sessions/${session.id}/close`)).body, { error: 'Missing permission: canvas.votes.manage' });
  const closed = await ann.post(`/canvas/boards/${boardId}/vote-sessions/${session.id}/close`);
  t.like(closed.body.data, { status: 'closed', closed_by: ann.id, results: [{ object_id: noteB, votes: 2 }], total_votes: 2, voter_count: 2 });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.voting.closed', payload: { board_id: boardId, session_id: session.id, total_votes: 2, voter_count: 2, closed_by: ann.mrn } }]);
  t.deepEqual((await ann.post(`/canvas/boards/${boardId}/vote-sessions/${session.id}/close`)).body, { error: 'Cannot close a voting session in state closed: close moves from open to closed' });
  t.deepEqual((await bob.post(votes, { object_id: noteA })).body, { error: `Voting session ${session.id} is closed` });
  t.deepEqual((await bob.delete(`${votes}/${noteB}`)).body, { error: `Voting session ${session.id} is closed` });
  t.deepEqual(world.takeEvents(), []);

  const multiple = (await ann.post(`/canvas/boards/${boardId}/vote-sessions`, { allow_multiple: true })).body.data;
  t.like(multiple, { votes_per_member: 3, allow_multiple: true, title: '' }, 'the default budget comes from the settings');
  const votes2 = `/canvas/boards/${boardId}/vote-sessions/${multiple.id}/votes`;
  await bob.post(votes2, { object_id: noteA });
  t.like((await bob.post(votes2, { object_id: noteA })).body.data, { my_votes: [{ object_id: noteA, votes: 2 }], votes_left: 1 });
  t.like((await bob.delete(`${votes2}/${noteA}`)).body.data, { my_votes: [{ object_id: noteA, votes: 1 }] }, 'one vote is taken back at a time');
  const listed = await bob.get(`/canvas/boards/${boardId}/vote-sessions`);
  t.deepEqual(listed.body.data.map((row: { id: string; status: string }) => [row.id, row.status]), [[multiple.id, 'open'], [session.id, 'closed']]);
  t.deepEqual((await bob.get(`/canvas/boards/${boardId}/vote-sessions?status=closed`)).body.data.map((row: { id: string }) => row.id), [session.id]);
});

test.serial('concurrent votes of one member never pass the budget', async (t) => {
  const board = await newBoard(ann);
  const notes = await Promise.all([1, 2, 3, 4, 5].map((index) => newSticky(ann, board, { text: `n${index}` })));
  const session = (await ann.post(`/canvas/boards/${board}/vote-sessions`, { votes_per_member: 2 })).body.data;
  const answers = await Promise.all(notes.map((note) => bob.post(`/canvas/boards/${board}/vote-sessions/${session.id}/votes`, { object_id: note })));
  t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 200, 409, 409, 409]);
  t.is((await bob.get(`/canvas/boards/${board}/vote-sessions/${session.id}`)).body.data.votes_left, 0);
});
