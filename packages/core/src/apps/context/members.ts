import { QueryTypes } from 'sequelize';
import { WorkspaceMembers, type DirectoryRead } from '../members.js';
import type { ContextInputs } from './inputs.js';
import { runtimeRoleCalls } from './strict.js';

/** `ctx.members` of one unit of work: the directory read in its transaction (or through its gate), under the runtime's role. */
export function membersOf({ runtime, workspace, work, platform }: ContextInputs): WorkspaceMembers {
  const { sequelize, strict } = platform;
  const select = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements });
  const inWork: DirectoryRead = work.gate ? (sql, replacements) => work.gate!.read(() => select(sql, replacements)) : select;
  if (!strict) return new WorkspaceMembers(inWork, workspace.id);
  const asRuntime = runtimeRoleCalls(strict, runtime.app);
  return new WorkspaceMembers((sql, replacements) => asRuntime(() => inWork(sql, replacements)), workspace.id);
}
