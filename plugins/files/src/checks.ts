import { check } from './kit.js';

/** `workspace_admin`: the caller is the workspace's owner or an admin (owners and admins pass every chain already; this refuses everyone else, whatever keys their roles hold). */
export const workspaceAdmin = check(async (_request, ctx) => ctx.member.platform_role === 'owner' || ctx.member.platform_role === 'admin');

export const checks = { workspace_admin: workspaceAdmin };
