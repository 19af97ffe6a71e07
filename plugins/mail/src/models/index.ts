import { DataTypes, defineModel } from '@wpk/sdk';

const id = () => ({ type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 });
const text = (max?: number) => ({ type: max ? DataTypes.STRING(max) : DataTypes.TEXT, allowNull: false, defaultValue: '' });
const list = () => ({ type: DataTypes.JSONB, allowNull: false, defaultValue: [] });

/** One result of a DNS check: what was expected, what was found, whether it matches. */
export interface RecordCheck {
  ok: boolean;
  found: string[];
}

/** A hosted domain; its DKIM private key is sealed with `ctx.secrets`. */
export interface Domain {
  id: string;
  name: string;
  dkim_selector: string;
  dkim_public_key: string;
  dkim_private_key: string;
  catch_all_mailbox_id: string | null;
  verified_at: Date | null;
  checked_at: Date | null;
  checks: Record<string, RecordCheck>;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** A hosted mailbox (and its member's account). */
export interface Mailbox {
  id: string;
  domain_id: string;
  local_part: string;
  address: string;
  display_name: string;
  member_id: string | null;
  signature_id: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** A group (distribution list) on a hosted domain. */
export interface Group {
  id: string;
  domain_id: string;
  local_part: string;
  address: string;
  name: string;
  description: string;
  who_can_post: 'anyone' | 'members';
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** Tiers of a group member, highest first. */
export type Tier = 'owner' | 'manager' | 'member';

/** A member of a group. */
export interface GroupMember {
  group_id: string;
  member_id: string;
  tier: Tier;
  added_by: string;
  created_at: Date;
  updated_at: Date;
}

/** An address with an optional name. */
export interface Address {
  address: string;
  name?: string;
}

/** A message of an account (account_id) or of a group (group_id). */
export interface Message {
  id: string;
  account_id: string | null;
  group_id: string | null;
  folder: string;
  message_id_header: string;
  in_reply_to: string;
  from_address: string;
  from_name: string;
  to_addresses: Address[];
  cc_addresses: Address[];
  bcc_addresses: Address[];
  subject: string;
  text_body: string;
  html_body: string;
  /** Outgoing mail: queued until the relay took it, then sent (or failed after the last attempt). */
  delivery_status: 'queued' | 'sent' | 'failed' | null;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string;
  sent_by: string | null;
  size_bytes: number;
  dkim: string;
  seen: boolean;
  flagged: boolean;
  sent_at: Date | null;
  received_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** A draft of an account. */
export interface Draft {
  id: string;
  account_id: string;
  to_addresses: Address[];
  cc_addresses: Address[];
  bcc_addresses: Address[];
  subject: string;
  text_body: string;
  html_body: string;
  in_reply_to: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** A signature of an account. */
export interface Signature {
  id: string;
  account_id: string;
  name: string;
  text_body: string;
  html_body: string;
  created_at: Date;
  updated_at: Date;
}

/** One condition of a filter. */
export interface FilterCondition {
  field: 'from' | 'to' | 'subject' | 'body';
  operator: 'contains' | 'equals' | 'ends_with';
  value: string;
}

/** One action of a filter. */
export interface FilterAction {
  type: 'move' | 'mark_seen' | 'flag' | 'discard';
  folder?: string;
}

/** A filter of an account: conditions (all or any) → actions, applied to incoming mail in position order. */
export interface Filter {
  id: string;
  account_id: string;
  name: string;
  match: 'all' | 'any';
  conditions: FilterCondition[];
  actions: FilterAction[];
  position: number;
  created_at: Date;
  updated_at: Date;
}

/** An address or `@domain` whose mail the account refuses. */
export interface BlockedSender {
  id: string;
  account_id: string;
  address: string;
  created_at: Date;
  updated_at: Date;
}

/** An SMTP submission credential of a mailbox; only the hash of its secret is kept. */
export interface OutboxKey {
  id: string;
  mailbox_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** The app's copy of who left the workspace (fed by events). */
export interface DirectoryEntry {
  member_id: string;
  removed_at: Date | null;
}

/** The app's models, by their name in `ctx.db`. */
export const models = {
  domains: defineModel<Domain>('domains', {
    id: id(),
    name: { type: DataTypes.STRING(253), allowNull: false },
    dkim_selector: { type: DataTypes.STRING(63), allowNull: false },
    dkim_public_key: { type: DataTypes.TEXT, allowNull: false },
    dkim_private_key: { type: DataTypes.TEXT, allowNull: false },
    catch_all_mailbox_id: { type: DataTypes.UUID, allowNull: true },
    verified_at: { type: DataTypes.DATE, allowNull: true },
    checked_at: { type: DataTypes.DATE, allowNull: true },
    checks: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
    created_by: { type: DataTypes.UUID, allowNull: false },
  }),
  mailboxes: defineModel<Mailbox>('mailboxes', {
    id: id(),
    domain_id: { type: DataTypes.UUID, allowNull: false },
    local_part: { type: DataTypes.STRING(64), allowNull: false },
    address: { type: DataTypes.STRING(320), allowNull: false },
    display_name: text(200),
    member_id: { type: DataTypes.UUID, allowNull: true },
    signature_id: { type: DataTypes.UUID, allowNull: true },
    created_by: { type: DataTypes.UUID, allowNull: false },
  }),
  groups: defineModel<Group>('groups', {
    id: id(),
    domain_id: { type: DataTypes.UUID, allowNull: false },
    local_part: { type: DataTypes.STRING(64), allowNull: false },
    address: { type: DataTypes.STRING(320), allowNull: false },
    name: { type: DataTypes.STRING(200), allowNull: false },
    description: text(2000),
    who_can_post: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'anyone' },
    created_by: { type: DataTypes.UUID, allowNull: false },
  }),
  groupMembers: defineModel<GroupMember>('group_members', {
    group_id: { type: DataTypes.UUID, primaryKey: true },
    member_id: { type: DataTypes.UUID, primaryKey: true },
    tier: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'member' },
    added_by: { type: DataTypes.UUID, allowNull: false },
  }),
  messages: defineModel<Message>('messages', {
    id: id(),
    account_id: { type: DataTypes.UUID, allowNull: true },
    group_id: { type: DataTypes.UUID, allowNull: true },
    folder: { type: DataTypes.STRING(40), allowNull: false, defaultValue: 'inbox' },
    message_id_header: text(998),
    in_reply_to: text(998),
    from_address: text(320),
    from_name: text(200),
    to_addresses: list(),
    cc_addresses: list(),
    bcc_addresses: list(),
    subject: text(998),
    text_body: text(),
    html_body: text(),
    delivery_status: { type: DataTypes.STRING(10), allowNull: true },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    next_attempt_at: { type: DataTypes.DATE, allowNull: true },
    last_error: text(500),
    sent_by: { type: DataTypes.UUID, allowNull: true },
    size_bytes: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    dkim: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'none' },
    seen: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    flagged: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    sent_at: { type: DataTypes.DATE, allowNull: true },
    received_at: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
  }),
  drafts: defineModel<Draft>('drafts', {
    id: id(),
    account_id: { type: DataTypes.UUID, allowNull: false },
    to_addresses: list(),
    cc_addresses: list(),
    bcc_addresses: list(),
    subject: text(998),
    text_body: text(),
    html_body: text(),
    in_reply_to: text(998),
    created_by: { type: DataTypes.UUID, allowNull: false },
  }),
  signatures: defineModel<Signature>('signatures', {
    id: id(),
    account_id: { type: DataTypes.UUID, allowNull: false },
    name: { type: DataTypes.STRING(100), allowNull: false },
    text_body: text(),
    html_body: text(),
  }),
  filters: defineModel<Filter>('filters', {
    id: id(),
    account_id: { type: DataTypes.UUID, allowNull: false },
    name: { type: DataTypes.STRING(100), allowNull: false },
    match: { type: DataTypes.STRING(3), allowNull: false, defaultValue: 'all' },
    conditions: { type: DataTypes.JSONB, allowNull: false },
    actions: { type: DataTypes.JSONB, allowNull: false },
    position: { type: DataTypes.INTEGER, allowNull: false },
  }),
  blockedSenders: defineModel<BlockedSender>('blocked_senders', {
    id: id(),
    account_id: { type: DataTypes.UUID, allowNull: false },
    address: { type: DataTypes.STRING(320), allowNull: false },
  }),
  outboxKeys: defineModel<OutboxKey>('outbox_keys', {
    id: id(),
    mailbox_id: { type: DataTypes.UUID, allowNull: false },
    name: { type: DataTypes.STRING(100), allowNull: false },
    prefix: { type: DataTypes.STRING(16), allowNull: false },
    secret_hash: { type: DataTypes.STRING(64), allowNull: false },
    revoked_at: { type: DataTypes.DATE, allowNull: true },
    last_used_at: { type: DataTypes.DATE, allowNull: true },
    created_by: { type: DataTypes.UUID, allowNull: false },
  }),
  memberDirectory: defineModel<DirectoryEntry>(
    'member_directory',
    { member_id: { type: DataTypes.UUID, primaryKey: true }, removed_at: { type: DataTypes.DATE, allowNull: true } },
  ),
};

/** The model map type (`ctx.db`). */
export type Models = typeof models;
