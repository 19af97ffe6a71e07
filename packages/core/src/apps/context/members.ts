import type { AccessExplanation, DirectoryMember } from '@wpk/sdk';
import { QueryTypes } from 'sequelize';
import { explainAccess } from '../../access/index.js';
import { WorkspaceMembers, type DirectoryRead } from '../members.js';
import type { ContextInputs } from './inputs.js';
import { runtimeRoleCalls } from './strict.js';

/** `ctx.members` of one unit of work: the directory read in its transaction (or through its gate), under the runtime's role. */
export function membersOf({ runtime, workspace, work, platform }: ContextInputs): WorkspaceMembers {
  const { sequelize, strict, access } = platform;
  const select = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements });
  const inWork = <T>(call: () => Promise<T>): Promise<T> => (work.gate ? work.gate.read(call) : call());
  const asRuntime = strict ? runtimeRoleCalls(strict, runtime.app) : <T>(call: () => Promise<T>) => call();
  const read: DirectoryRead = (sql, replacements) => asRuntime(() => inWork(() => select(sql, replacements)));
  // The explainer reads as the guard does (the runtime's role), in the caller's work.
  const explain = access ? (member: DirectoryMember, action: string): Promise<AccessExplanation> => asRuntime(() => inWork(() => explainAccess(sequelize, access, workspace.id, member, action, platform.clock()))) : null;
  return new WorkspaceMembers(read, workspace.id, explain);
}
