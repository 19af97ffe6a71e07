export { hostnameOf, isHostPath, isServedHost, publicOrigin, subdomainFromHost } from './host.js';
export { RESERVED_SUBDOMAINS, validateSubdomain, WorkspaceService, type CreateWorkspaceInput } from './workspaces.js';
export { defineWorkspaceModel, presentWorkspace, Workspace, type WorkspaceRecord } from './workspace-model.js';
