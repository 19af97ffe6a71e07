/**
 * The payload of each event of the platform's catalog (./catalog.ts), generated from its JSON Schemas by
 * `npx tsx cli/scripts/platform-payloads.ts`: do not edit. Apps name these through `PlatformPayloads`.
 */

/**
 * An app was installed in the workspace.
 */
export interface SystemAppInstalledPayload {
  /**
   * The app: its slug, or `ext.{publisher}.{slug}`.
   */
  app_slug: string;
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  installed_by?: string;
  [k: string]: unknown;
}

/**
 * An app was uninstalled from the workspace.
 */
export interface SystemAppUninstalledPayload {
  /**
   * The app: its slug, or `ext.{publisher}.{slug}`.
   */
  app_slug: string;
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  uninstalled_by?: string;
  [k: string]: unknown;
}

/**
 * The workspace was created.
 */
export interface SystemWorkspaceCreatedPayload {
  name: string;
  owner_id?: string;
  [k: string]: unknown;
}

/**
 * A member joined the workspace.
 */
export interface SystemWorkspaceMemberAddedPayload {
  member_id: string;
  role: 'owner' | 'admin' | 'member';
  [k: string]: unknown;
}

/**
 * A member was removed from the workspace.
 */
export interface SystemWorkspaceMemberRemovedPayload {
  member_id: string;
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  removed_by?: string;
  [k: string]: unknown;
}

/**
 * A role was created (audit).
 */
export interface SystemSecurityRoleCreatedPayload {
  role_id: string;
  role_name: string;
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  created_by?: string;
  [k: string]: unknown;
}

/**
 * A request was refused for lack of a permission (audit).
 */
export interface SystemSecurityPermissionDeniedPayload {
  member_id?: string;
  permission: string;
  /**
   * The app: its slug, or `ext.{publisher}.{slug}`.
   */
  app_slug?: string;
  route: string;
  [k: string]: unknown;
}

/**
 * An application was installed.
 */
export interface CoreAccountApplicationInstalledPayload {
  /**
   * The app: its slug, or `ext.{publisher}.{slug}`.
   */
  app_slug: string;
  app_name: string;
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  installed_by?: string;
  [k: string]: unknown;
}

/**
 * An application was uninstalled.
 */
export interface CoreAccountApplicationUninstalledPayload {
  /**
   * The app: its slug, or `ext.{publisher}.{slug}`.
   */
  app_slug: string;
  app_name: string;
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  uninstalled_by?: string;
  [k: string]: unknown;
}

/**
 * A role was created.
 */
export interface CoreAccountRoleCreatedPayload {
  role_id: string;
  role_name: string;
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  created_by?: string;
  [k: string]: unknown;
}

/**
 * A role was changed.
 */
export interface CoreAccountRoleUpdatedPayload {
  role_id: string;
  role_name: string;
  changed_fields: string[];
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  updated_by?: string;
  [k: string]: unknown;
}

/**
 * A role was deleted; affected_members lists the member ids that held it (a count is accepted too).
 */
export interface CoreAccountRoleDeletedPayload {
  role_id: string;
  role_name: string;
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  deleted_by?: string;
  affected_members?: string[] | number;
  [k: string]: unknown;
}

/**
 * Someone was invited to the workspace.
 */
export interface CoreAccountMemberInvitedPayload {
  email: string;
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  invited_by?: string;
  platform_role: 'owner' | 'admin' | 'member';
  [k: string]: unknown;
}

/**
 * A member was removed.
 */
export interface CoreAccountMemberRemovedPayload {
  member_id: string;
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  removed_by?: string;
  [k: string]: unknown;
}

/**
 * A member's role changed.
 */
export interface CoreAccountMemberRoleChangedPayload {
  member_id: string;
  from_role?: string;
  to_role: string;
  /**
   * Who did it: a member id, or an MRN for an API key or the system.
   */
  changed_by?: string;
  [k: string]: unknown;
}

/**
 * A member's avatar changed (avatar_url absent: removed).
 */
export interface CoreAccountMemberAvatarUpdatedPayload {
  member_id: string;
  avatar_url?: string;
  [k: string]: unknown;
}

/**
 * An invoice was issued and is due: `seats` (a period of seats billed in advance, or an upgrade's proration) or `usage` (seats beyond those paid for, billed after the month).
 */
export interface CoreBillingInvoiceIssuedPayload {
  invoice_id: string;
  workspace_id: string;
  kind: 'seats' | 'usage';
  /**
   * An exact decimal amount with two places, e.g. `96.00`.
   */
  amount: string;
  currency: string;
  period_start: string;
  period_end: string;
  due_at: string;
  [k: string]: unknown;
}

/**
 * An invoice was charged to the workspace's default card and is paid (`attempt_count`: the charges it took).
 */
export interface CoreBillingInvoicePaidPayload {
  invoice_id: string;
  workspace_id: string;
  /**
   * An exact decimal amount with two places, e.g. `96.00`.
   */
  amount: string;
  currency: string;
  attempt_count: number;
  paid_at: string;
  [k: string]: unknown;
}

/**
 * A charge of an invoice failed (declined, or no card on file); the invoice is past due. `next_attempt_at` is the next retry (absent: none is left).
 */
export interface CoreBillingInvoicePaymentFailedPayload {
  invoice_id: string;
  workspace_id: string;
  /**
   * An exact decimal amount with two places, e.g. `96.00`.
   */
  amount: string;
  currency: string;
  attempt_count: number;
  error: string;
  next_attempt_at?: string;
  [k: string]: unknown;
}

/**
 * The last retry of an invoice's charge failed (dunning exhausted): the workspace is past due until every invoice is paid.
 */
export interface CoreBillingDunningExhaustedPayload {
  workspace_id: string;
  invoice_id: string;
  since: string;
  [k: string]: unknown;
}

/** The payload of each platform event, by action. */
export interface PlatformPayloads {
  'system.app.installed': SystemAppInstalledPayload;
  'system.app.uninstalled': SystemAppUninstalledPayload;
  'system.workspace.created': SystemWorkspaceCreatedPayload;
  'system.workspace.member.added': SystemWorkspaceMemberAddedPayload;
  'system.workspace.member.removed': SystemWorkspaceMemberRemovedPayload;
  'system.security.role.created': SystemSecurityRoleCreatedPayload;
  'system.security.permission.denied': SystemSecurityPermissionDeniedPayload;
  'core.account.application.installed': CoreAccountApplicationInstalledPayload;
  'core.account.application.uninstalled': CoreAccountApplicationUninstalledPayload;
  'core.account.role.created': CoreAccountRoleCreatedPayload;
  'core.account.role.updated': CoreAccountRoleUpdatedPayload;
  'core.account.role.deleted': CoreAccountRoleDeletedPayload;
  'core.account.member.invited': CoreAccountMemberInvitedPayload;
  'core.account.member.removed': CoreAccountMemberRemovedPayload;
  'core.account.member.role_changed': CoreAccountMemberRoleChangedPayload;
  'core.account.member.avatar_updated': CoreAccountMemberAvatarUpdatedPayload;
  'core.billing.invoice.issued': CoreBillingInvoiceIssuedPayload;
  'core.billing.invoice.paid': CoreBillingInvoicePaidPayload;
  'core.billing.invoice.payment_failed': CoreBillingInvoicePaymentFailedPayload;
  'core.billing.dunning.exhausted': CoreBillingDunningExhaustedPayload;
}
