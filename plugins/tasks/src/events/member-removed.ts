import { memberRemoved as onRemoval } from '../kit.js';
import { memberRemoved } from '../services/member-removal.js';

/**
 * `core.account.member.removed` {member_id, removed_by}: the member left the workspace. Their
 * open tasks lose them as assignee and their board memberships go. Idempotent: a redelivery
 * finds nothing left to change. A malformed payload is logged and acknowledged (a retry would
 * not fix it).
 */
export const onMemberRemoved = onRemoval(async (ctx, { memberId }) => {
  const { unassigned } = await memberRemoved(ctx, memberId);
  ctx.log.info({ member_id: memberId, unassigned: unassigned.length }, 'member removed: open tasks unassigned');
});
