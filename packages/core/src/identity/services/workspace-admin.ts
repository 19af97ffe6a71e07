import { ConflictError, InvalidError, isUuid, NotFoundError } from '@wpk/sdk';
import { Op } from 'sequelize';
import type { CallerMember } from '../../access/index.js';
import { presentWorkspace, Workspace } from '../../tenancy/index.js';
import type { ActivityLog } from './activity.js';
import { accountEvent, type IdentityContext, type Stage } from './context.js';

/** A workspace as GET /workspaces/{id} shows it. */
export type PresentedWorkspaceDetail = ReturnType<typeof presentWorkspace> & {
  owner_member_id: string | null;
  member_count: number;
};

/** The workspace itself: reading it, transferring ownership, deleting it. */
export class WorkspaceAdminService {
  constructor(
    private readonly context: IdentityContext,
    private readonly activity: ActivityLog,
  ) {}

  /** The caller's own workspace; another id (or a deleted workspace) is a 404. */
  async find(caller: CallerMember, workspaceId: string): Promise<Workspace> {
    const workspace = isUuid(workspaceId) && workspaceId === caller.workspaceId ? await this.context.workspaces.model.findOne({ where: { id: workspaceId, status: { [Op.ne]: 'deleted' } } }) : null;
    if (!workspace) throw new NotFoundError(`No workspace ${workspaceId} here`);
    return workspace;
  }

  async get(caller: CallerMember, workspaceId: string): Promise<PresentedWorkspaceDetail> {
    const workspace = await this.find(caller, workspaceId);
    const owner = await this.context.models.Member.findOne({ where: { workspace_id: workspace.id, platform_role: 'owner' } });
    const memberCount = await this.context.models.Member.count({ where: { workspace_id: workspace.id, state: 'joined', deactivated_at: null } });
    return { ...presentWorkspace(workspace), owner_member_id: owner?.id ?? null, member_count: memberCount };
  }

  /** POST /workspaces/{id}/ownership: the target (a joined, active member) becomes owner; the old owner becomes admin. */
  async transferOwnership(caller: CallerMember, workspaceId: string, memberId: string, stage: Stage, ip: string | null): Promise<PresentedWorkspaceDetail> {
    const workspace = await this.find(caller, workspaceId);
    if (memberId === caller.id) throw new InvalidError('member_id: you already own this workspace', { field: 'member_id' });
    const target = isUuid(memberId) ? await this.context.models.Member.findOne({ where: { id: memberId, workspace_id: workspace.id } }) : null;
    if (!target) throw new NotFoundError(`No member ${memberId} in this workspace`);
    if (target.state !== 'joined' || target.deactivated_at) throw new ConflictError('Ownership can only go to a joined, active member');
    const owner = await this.context.models.Member.findOne({ where: { id: caller.id, workspace_id: workspace.id, platform_role: 'owner' }, rejectOnEmpty: true });
    const targetFrom = target.platform_role;
    owner.platform_role = 'admin';
    await owner.save();
    target.platform_role = 'owner';
    await target.save();
    stage(accountEvent('core.account.member.role_changed', { member_id: owner.id, from_role: 'owner', to_role: 'admin', changed_by: caller.id }));
    stage(accountEvent('core.account.member.role_changed', { member_id: target.id, from_role: targetFrom, to_role: 'owner', changed_by: caller.id }));
    await this.activity.record({ workspaceId: workspace.id, actor: { memberId: caller.id, email: caller.email }, action: 'workspace.ownership_transferred', targetType: 'member', targetId: target.id, details: { from_member_id: owner.id }, ip });
    return this.get({ ...caller }, workspaceId);
  }

  /**
   * DELETE /workspaces/{id}: the workspace is marked deleted (its subdomain then answers 404 and
   * stays reserved) and every session in it ends.
   */
  async delete(caller: CallerMember, workspaceId: string, ip: string | null): Promise<PresentedWorkspaceDetail> {
    const detail = await this.get(caller, workspaceId);
    await this.context.workspaces.model.update({ status: 'deleted' }, { where: { id: detail.id } });
    await this.context.models.Session.destroy({ where: { workspace_id: detail.id } });
    await this.activity.record({ workspaceId: detail.id, actor: { memberId: caller.id, email: caller.email }, action: 'workspace.deleted', targetType: 'workspace', targetId: detail.id, ip });
    return { ...detail, status: 'deleted' };
  }
}
