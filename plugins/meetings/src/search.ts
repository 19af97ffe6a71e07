import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { meetingDocument, meetings } from './services/meetings.js';

/** Search hooks: each meeting, readable by its organizer and member attendees only. */
export const search: Record<string, SearchHooks<Models>> = {
  meeting: {
    async *reindex(ctx) {
      for await (const meeting of meetings.walk(ctx)) {
        const attendees = await ctx.db.attendees.findAll({ where: { meeting_id: meeting.id }, order: [['position', 'ASC'], ['id', 'ASC']] });
        yield meetingDocument(meeting, attendees.flatMap((attendee) => (attendee.member_id ? [attendee.member_id] : [])));
      }
    },
  },
};
