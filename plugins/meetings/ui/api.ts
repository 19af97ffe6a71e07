import { cardStyles, css, type components } from '@wpk/ui';

export type Meeting = components['schemas']['MeetingsMeeting'];
export type Attendee = Meeting['attendees'][number];

/** An RSVP as people read it. */
export const ANSWERS: Record<string, string> = { needs_action: 'Not answered', accepted: 'Going', tentative: 'Maybe', declined: 'Not going' };

/** The screens' look: the kit's cards, tables and forms, and a cancelled meeting's mark. */
export const CARD_STYLES = [
  cardStyles,
  css`
    .cancelled { color: var(--wpk-color-danger); font-weight: var(--wpk-font-weight-bold); }
  `,
];
