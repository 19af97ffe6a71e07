/**
 * What the route-table guards seed of the Meetings app: a meeting with the workspace's member and
 * an outside address as attendees, a file filed through a completed upload grant, and an open grant.
 */

/** A call to the API as the workspace's owner: answers `data`, throws on anything but 200. */
type OwnerCall = (method: string, url: string, body?: unknown) => Promise<any>;
/** One raw request (the storage link's PUT). */
type Inject = (request: { method: string; url: string; headers: Record<string, string>; payload?: string | Buffer }) => Promise<{ statusCode: number; payload: string }>;

/** The Meetings app's seeded records. */
export type MeetingsSeedKind = 'meeting' | 'attendee' | 'meeting_file' | 'presignation';

/** Path parameters of the Meetings app's routes, by first path segment. */
export const MEETINGS_PARAM_KINDS: Record<string, Record<string, MeetingsSeedKind>> = {
  meetings: { id: 'meeting', attendee_id: 'attendee', file_id: 'meeting_file' },
  presignations: { id: 'presignation' },
};

/** Body fields naming Meetings records (none: attendees are named by `member_mrn`, mapped by core's guard). */
export const MEETINGS_FIELD_KINDS: Record<string, MeetingsSeedKind> = {};

const PDF = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';

export async function seedMeetings(call: OwnerCall, inject: Inject, marker: string, memberMrn: string): Promise<Record<MeetingsSeedKind, string>> {
  await call('POST', '/applications/meetings/installations', {});
  const meeting = await call('POST', '/meetings', {
    title: `${marker} meeting`,
    description: marker,
    starts_at: '2030-01-07T09:00:00Z',
    ends_at: '2030-01-07T10:00:00Z',
    attendees: [{ member_mrn: memberMrn }, { email: 'guest@example.com', name: `${marker} guest` }],
  });
  const grant = await call('POST', `/meetings/${meeting.id}/presignations`, { purpose: 'attachment', filename: `${marker}.pdf`, content_type: 'application/pdf', size_bytes: 4096 });
  const link = new URL(grant.upload.url);
  const put = await inject({ method: 'PUT', url: link.pathname, headers: { host: link.host, 'content-type': 'application/pdf' }, payload: PDF });
  if (put.statusCode !== 200) throw new Error(`seeding meetings: PUT upload link: ${put.statusCode} ${put.payload}`);
  const file = await call('POST', `/presignations/${grant.id}/completion`, {});
  const open = await call('POST', `/meetings/${meeting.id}/presignations`, { purpose: 'recording', filename: `${marker}.webm`, content_type: 'video/webm', size_bytes: 4096 });
  return { meeting: meeting.id, attendee: meeting.attendees[0].id, meeting_file: file.id, presignation: open.id };
}
