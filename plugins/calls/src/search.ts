import type { SearchDocument, SearchHooks } from '@wpk/sdk';
import type { Call, Models } from './models/index.js';

/** The search document of a call: found by its participants (and by owners and admins). */
export function callDocument(call: Call, participantIds: string[]): SearchDocument {
  return {
    type: 'call',
    id: call.id,
    title: call.title,
    subtitle: call.scheduled_at ? `${call.status}, ${call.scheduled_at.toISOString()}` : call.status,
    url: `/calls/${call.id}`,
    names: [call.title],
    details: [call.source_mrn ?? ''],
    filters: { status: call.status, type: call.type },
    readers: participantIds.slice(0, 1000),
  };
}

export const search: Record<string, SearchHooks<Models>> = {
  call: {
    async reindex(ctx) {
      const calls = await ctx.db.calls.findAll({ order: [['created_at', 'ASC']] });
      const participants = await ctx.db.participants.findAll({ order: [['created_at', 'ASC']] });
      const byCall = new Map<string, string[]>();
      for (const participant of participants) byCall.set(participant.call_id, [...(byCall.get(participant.call_id) ?? []), participant.member_id]);
      return calls.map((call) => callDocument(call, byCall.get(call.id) ?? []));
    },
  },
};
