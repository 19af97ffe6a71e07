import type { Sequelize } from 'sequelize';
import { Account, defineAccount } from './account.js';
import { defineMember, Member } from './member.js';
import { defineRoles, type MemberRole, type Role } from './role.js';
import { defineTokens, type TokenModels } from './tokens.js';

export { Account } from './account.js';
export { Member } from './member.js';
export { MemberRole, Role, type RolePermissions } from './role.js';
export { Invitation, PasswordReset, RecoveryCode, Session, Signup } from './tokens.js';

/**
 * Identity's models bound to one runtime's connection. The exported classes only give rows their
 * types; queries go through these, so two runtimes in one process never see each other's rows.
 */
export interface IdentityModels extends TokenModels {
  Account: typeof Account;
  Member: typeof Member;
  Role: typeof Role;
  MemberRole: typeof MemberRole;
}

/** Binds identity's Sequelize models to a connection. */
export function defineIdentityModels(sequelize: Sequelize): IdentityModels {
  return { Account: defineAccount(sequelize), Member: defineMember(sequelize), ...defineRoles(sequelize), ...defineTokens(sequelize) };
}
