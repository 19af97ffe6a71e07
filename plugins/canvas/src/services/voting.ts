import { ConflictError, defineStateMachine, InvalidError, isUuid, memberMrn, NotFoundError } from '@wpk/sdk';
import { SESSION_STATUSES, type VoteSession } from '../models/index.js';
import { requireBoard } from './boards.js';
import type { CanvasContext } from '../kit.js';
import { loadDocument } from './documents.js';
import { publishToBoard } from './live.js';
import { OBJECTS_ROOT } from './objects-model.js';
import { presentSession } from './present.js';

const VOTING_CLOSED = 'core.canvas.voting.closed';

/** A voting session takes votes while open; closing it makes its results final and visible. */
export const votingSession = defineStateMachine({
  name: 'voting session',
  states: SESSION_STATUSES,
  initial: 'open',
  moves: { close: { from: ['open'], to: 'closed', event: VOTING_CLOSED } },
});

/** The voting session of the board, or 404. */
export async function requireSession(ctx: CanvasContext, boardId: string, sessionId: string, lock = false): Promise<VoteSession> {
  const session = isUuid(sessionId) ? await ctx.db.voteSessions.findOne({ where: { id: sessionId, board_id: boardId }, ...(lock ? { lock: 'update' as const } : {}) }) : null;
  if (!session) throw new NotFoundError(`Voting session ${sessionId} not found on board ${boardId}`);
  return session;
}

/** Totals per object, most votes first (ties: object id), and how many members voted. */
async function resultsOf(ctx: CanvasContext, sessionId: string) {
  const votes = await ctx.db.votes.findAll({ where: { session_id: sessionId }, attributes: ['object_id', 'member_id'] });
  const totals = new Map<string, number>();
  for (const vote of votes) totals.set(vote.object_id, (totals.get(vote.object_id) ?? 0) + 1);
  const results = [...totals].map(([object_id, votes]) => ({ object_id, votes })).sort((a, b) => b.votes - a.votes || (a.object_id < b.object_id ? -1 : 1));
  return { results, total_votes: votes.length, voter_count: new Set(votes.map((vote) => vote.member_id)).size };
}

/**
 * A session as the caller sees it: the caller's own votes and what is left of their budget; the
 * totals (`results`) once it is closed (null while open, so early votes do not sway later ones).
 */
export async function presentSessionFor(ctx: CanvasContext, session: VoteSession) {
  const mine = await ctx.db.votes.findAll({ where: { session_id: session.id, member_id: ctx.member.id }, attributes: ['object_id'] });
  const myVotes = new Map<string, number>();
  for (const vote of mine) myVotes.set(vote.object_id, (myVotes.get(vote.object_id) ?? 0) + 1);
  const closed = session.status === 'closed' ? await resultsOf(ctx, session.id) : null;
  return {
    ...presentSession(session),
    my_votes: [...myVotes].map(([object_id, votes]) => ({ object_id, votes })).sort((a, b) => (a.object_id < b.object_id ? -1 : 1)),
    votes_left: Math.max(0, session.votes_per_member - mine.length),
    results: closed?.results ?? null,
    total_votes: closed?.total_votes ?? null,
    voter_count: closed?.voter_count ?? null,
  };
}

export async function listSessions(ctx: CanvasContext, boardId: string, query: { status?: 'open' | 'closed' }) {
  const board = await requireBoard(ctx, boardId);
  const { rows, count } = await ctx.db.voteSessions.findAndCountAll({
    where: { board_id: board.id, ...(query.status ? { status: query.status } : {}) },
    order: [['created_at', 'DESC'], ['id', 'ASC']],
    limit: ctx.page.limit,
    offset: ctx.page.offset,
  });
  return { rows: await Promise.all(rows.map((row) => presentSessionFor(ctx, row))), count };
}

/** Starts a session; a board has at most one open session at a time (409). */
export async function startSession(ctx: CanvasContext, boardId: string, input: { title?: string; votes_per_member?: number; allow_multiple?: boolean }): Promise<VoteSession> {
  const board = await requireBoard(ctx, boardId, 'update');
  const open = await ctx.db.voteSessions.findOne({ where: { board_id: board.id, status: 'open' } });
  if (open) throw new ConflictError(`Board ${board.id} already has an open voting session (${open.id}): close it first`);
  const session = await ctx.db.voteSessions.create({
    board_id: board.id,
    title: input.title ?? '',
    votes_per_member: input.votes_per_member ?? ctx.settings.default_votes_per_member,
    allow_multiple: input.allow_multiple ?? false,
    status: votingSession.initial,
    started_by: ctx.member.id,
  });
  ctx.events.stage('core.canvas.voting.started', { board_id: board.id, session_id: session.id, title: session.title, votes_per_member: session.votes_per_member, started_by: memberMrn(ctx.member.id) });
  publishToBoard(ctx, board.id, 'voting.started', presentSession(session));
  return session;
}

/** Closes a session: its results become final and visible. Closing a closed session is 409 naming both states. */
export async function closeSession(ctx: CanvasContext, boardId: string, sessionId: string): Promise<VoteSession> {
  const board = await requireBoard(ctx, boardId);
  const session = await requireSession(ctx, board.id, sessionId, true);
  const { to } = votingSession.move(session.status, 'close');
  await ctx.db.voteSessions.update({ status: to, closed_at: new Date(), closed_by: ctx.member.id }, { where: { id: session.id } });
  const closed = await requireSession(ctx, board.id, session.id);
  const { results, total_votes, voter_count } = await resultsOf(ctx, session.id);
  ctx.events.stage(VOTING_CLOSED, { board_id: board.id, session_id: session.id, total_votes, voter_count, closed_by: memberMrn(ctx.member.id) });
  publishToBoard(ctx, board.id, 'voting.closed', { ...presentSession(closed), results, total_votes, voter_count });
  return closed;
}

/** An open session of the board, locked for the caller's vote. */
async function openSession(ctx: CanvasContext, boardId: string, sessionId: string): Promise<VoteSession> {
  const board = await requireBoard(ctx, boardId);
  const session = await requireSession(ctx, board.id, sessionId, true);
  if (session.status !== 'open') throw new ConflictError(`Voting session ${session.id} is closed`);
  return session;
}

/**
 * Casts one vote on an object of the board. The budget (`votes_per_member`) and, unless the
 * session allows it, one vote per object are checked under a lock on the member's votes.
 */
export async function castVote(ctx: CanvasContext, boardId: string, sessionId: string, objectId: string) {
  const session = await openSession(ctx, boardId, sessionId);
  const { doc } = await loadDocument(ctx, session.board_id);
  if (!doc.getMap(OBJECTS_ROOT).has(objectId)) throw new InvalidError(`object_id: no object ${objectId} on board ${session.board_id}`);
  await ctx.lock(`votes:${session.id}:${ctx.member.id}`);
  const mine = await ctx.db.votes.findAll({ where: { session_id: session.id, member_id: ctx.member.id }, attributes: ['object_id'] });
  if (mine.length >= session.votes_per_member) throw new ConflictError(`You have used all ${session.votes_per_member} of your votes in this session: take one back first`);
  if (!session.allow_multiple && mine.some((vote) => vote.object_id === objectId)) throw new ConflictError(`You already voted for ${objectId}; this session allows one vote per object`);
  await ctx.db.votes.create({ session_id: session.id, object_id: objectId, member_id: ctx.member.id });
  ctx.events.stage('core.canvas.vote.added', { board_id: session.board_id, session_id: session.id, object_id: objectId, voter_mrn: memberMrn(ctx.member.id) });
  const view = await presentSessionFor(ctx, session);
  publishToBoard(ctx, session.board_id, 'vote.added', { session_id: session.id, object_id: objectId, votes_left: view.votes_left }, [ctx.member.id]);
  return view;
}

/** Takes back one of the caller's votes on the object (the spec's DELETE); 404 when they have none there. */
export async function removeVote(ctx: CanvasContext, boardId: string, sessionId: string, objectId: string) {
  const session = await openSession(ctx, boardId, sessionId);
  await ctx.lock(`votes:${session.id}:${ctx.member.id}`);
  const vote = await ctx.db.votes.findOne({ where: { session_id: session.id, member_id: ctx.member.id, object_id: objectId }, order: [['created_at', 'DESC'], ['id', 'DESC']] });
  if (!vote) throw new NotFoundError(`You have no vote on ${objectId} in this session`);
  await ctx.db.votes.destroy({ where: { id: vote.id } });
  ctx.events.stage('core.canvas.vote.removed', { board_id: session.board_id, session_id: session.id, object_id: objectId, voter_mrn: memberMrn(ctx.member.id) });
  const view = await presentSessionFor(ctx, session);
  publishToBoard(ctx, session.board_id, 'vote.removed', { session_id: session.id, object_id: objectId, votes_left: view.votes_left }, [ctx.member.id]);
  return view;
}

