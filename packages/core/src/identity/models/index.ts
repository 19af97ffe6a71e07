import type { Sequelize } from 'sequelize';
import { defineAccount } from './account.js';
import { defineMember } from './member.js';
import { defineRoles } from './role.js';
import { defineTokens } from './tokens.js';

export { Account } from './account.js';
export { Member } from './member.js';
export { MemberRole, Role, type RolePermissions } from './role.js';
export { Invitation, PasswordReset, RecoveryCode, Session, Signup } from './tokens.js';

/** Defines identity's Sequelize models on a connection. */
export function defineIdentityModels(sequelize: Sequelize): void {
  defineAccount(sequelize);
  defineMember(sequelize);
  defineRoles(sequelize);
  defineTokens(sequelize);
}
