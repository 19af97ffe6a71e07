import { InvalidError, memberMrn, NotFoundError, Op } from '@wpk/sdk';
import type { GrowthContext } from '../kit.js';
import type { FeedbackRequest, OneOnOne, Praise } from '../models/index.js';

export const presentOneOnOne = (row: OneOnOne) => ({ id: row.id, organizer_id: row.organizer_id, attendee_id: row.attendee_id, scheduled_on: row.scheduled_on, agenda: row.agenda, notes: row.notes, action_items: row.action_items, created_at: row.created_at, updated_at: row.updated_at });

/** The 1:1s the caller takes part in (as organizer or attendee), latest first. */
export function listOneOnOnes(ctx: GrowthContext) {
  return ctx.db.oneOnOnes.findAndCountAll({ where: { [Op.or]: [{ organizer_id: ctx.member.id }, { attendee_id: ctx.member.id }] }, order: [['scheduled_on', 'DESC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
}

/** A 1:1 of the caller with another member: agenda, notes and action items. */
export function createOneOnOne(ctx: GrowthContext, input: { attendee_id: string; scheduled_on: string; agenda?: string[]; notes?: string; action_items?: Array<{ text: string; done?: boolean }> }): Promise<OneOnOne> {
  if (input.attendee_id.toLowerCase() === ctx.member.id) throw new InvalidError('attendee_id is you: a 1:1 is with someone else', { field: 'attendee_id' });
  return ctx.db.oneOnOnes.create({
    organizer_id: ctx.member.id,
    attendee_id: input.attendee_id.toLowerCase(),
    scheduled_on: input.scheduled_on,
    agenda: (input.agenda ?? []).map((item) => item.trim()),
    notes: input.notes?.trim() ?? '',
    action_items: (input.action_items ?? []).map((item) => ({ text: item.text.trim(), done: item.done ?? false })),
  });
}

/**
 * Its organizer or attendee changes a 1:1: the date, the agenda, the notes, the action items
 * (the list is replaced: ticking one sends them all). Anyone else gets a 404, as for a 1:1 that
 * does not exist.
 */
export async function updateOneOnOne(ctx: GrowthContext, id: string, input: { scheduled_on?: string; agenda?: string[]; notes?: string; action_items?: Array<{ text: string; done?: boolean }> }): Promise<OneOnOne> {
  const row = await ctx.db.oneOnOnes.findOne({ where: { id, [Op.or]: [{ organizer_id: ctx.member.id }, { attendee_id: ctx.member.id }] }, lock: 'update' });
  if (!row) throw new NotFoundError(`1:1 ${id} not found`);
  const changes: Partial<OneOnOne> = {};
  if (input.scheduled_on !== undefined) changes.scheduled_on = input.scheduled_on;
  if (input.agenda !== undefined) changes.agenda = input.agenda.map((item) => item.trim());
  if (input.notes !== undefined) changes.notes = input.notes.trim();
  if (input.action_items !== undefined) changes.action_items = input.action_items.map((item) => ({ text: item.text.trim(), done: item.done ?? false }));
  await ctx.db.oneOnOnes.update(changes, { where: { id: row.id } });
  return (await ctx.db.oneOnOnes.findById(row.id))!;
}

export const presentFeedbackRequest = (row: FeedbackRequest) => ({ id: row.id, requester_id: row.requester_id, responder_id: row.responder_id, about_id: row.about_id, question: row.question, due_on: row.due_on, created_at: row.created_at });

/** The caller asks a member for feedback about someone (themselves unless `about_id`). */
export function requestFeedback(ctx: GrowthContext, input: { responder_id: string; about_id?: string; question: string; due_on?: string | null }): Promise<FeedbackRequest> {
  if (input.responder_id.toLowerCase() === ctx.member.id) throw new InvalidError('responder_id is you: ask someone else', { field: 'responder_id' });
  return ctx.db.feedbackRequests.create({ requester_id: ctx.member.id, responder_id: input.responder_id.toLowerCase(), about_id: (input.about_id ?? ctx.member.id).toLowerCase(), question: input.question.trim(), due_on: input.due_on ?? null });
}

/** The feedback requests the caller made or was asked to answer, newest first. */
export function listFeedbackRequests(ctx: GrowthContext) {
  return ctx.db.feedbackRequests.findAndCountAll({ where: { [Op.or]: [{ requester_id: ctx.member.id }, { responder_id: ctx.member.id }] }, order: [['created_at', 'DESC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
}

/** The praise the caller gave or received, newest first. */
export function listPraise(ctx: GrowthContext) {
  return ctx.db.praise.findAndCountAll({ where: { [Op.or]: [{ giver_id: ctx.member.id }, { receiver_id: ctx.member.id }] }, order: [['created_at', 'DESC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
}

export const presentPraise = (row: Praise) => ({ id: row.id, giver_id: row.giver_id, receiver_id: row.receiver_id, message: row.message, competency_id: row.competency_id, created_at: row.created_at });

/** The caller praises a member, optionally for a competency. Emits `praise.given`. */
export async function givePraise(ctx: GrowthContext, input: { receiver_id: string; message: string; competency_id?: string | null }): Promise<Praise> {
  const receiver = input.receiver_id.toLowerCase();
  if (receiver === ctx.member.id) throw new InvalidError('receiver_id is you: praise goes to someone else', { field: 'receiver_id' });
  if (input.competency_id && !(await ctx.db.competencies.findById(input.competency_id))) throw new InvalidError(`competency_id ${input.competency_id} is not a competency of this workspace`, { field: 'competency_id' });
  const row = await ctx.db.praise.create({ giver_id: ctx.member.id, receiver_id: receiver, message: input.message.trim(), competency_id: input.competency_id ?? null });
  ctx.events.stage('core.growth.praise.given', { praise_id: row.id, giver_mrn: ctx.member.mrn, receiver_mrn: memberMrn(receiver), message: row.message, ...(row.competency_id ? { competency_id: row.competency_id } : {}) });
  return row;
}
