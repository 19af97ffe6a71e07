import type { Request, ServerRoute } from '@hapi/hapi';
import { Joi } from '@wpk/sdk';
import { requireRole } from '../access/index.js';
import { collection, parsePagination, single } from '../server/index.js';
import { MESSAGE_THREAD, MESSAGE_THREAD_DETAIL } from './answers.js';
import type { MessagesService } from './service.js';

const READ = "read the platform's messages";

/** `GET /messages` and `GET /messages/{thread_id}`: the platform's notices to the workspace's owners and admins. */
export function messageRoutes(messages: MessagesService): ServerRoute[] {
  const workspaceId = (request: Request) => request.app.workspace!.id;
  return [
    {
      method: 'GET',
      path: '/messages',
      options: { app: { platformAccess: 'account.messages.read', answers: { collection: MESSAGE_THREAD } } },
      handler: async (request) => {
        requireRole(request, 'admin', READ);
        const page = parsePagination(request.query);
        const { rows, total } = await messages.threads(workspaceId(request), page);
        return collection(request, rows, total, page);
      },
    },
    {
      method: 'GET',
      path: '/messages/{thread_id}',
      options: { app: { platformAccess: 'account.messages.read', answers: { single: MESSAGE_THREAD_DETAIL } }, validate: { params: Joi.object({ thread_id: Joi.string().min(1).max(100).required() }) } },
      handler: async (request) => {
        requireRole(request, 'admin', READ);
        return single(request, await messages.thread(workspaceId(request), request.params.thread_id as string));
      },
    },
  ];
}
