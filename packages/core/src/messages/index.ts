export { messageRoutes } from './routes.js';
export { MessagesService, type MessageView, type ReleaseNoteView, type ThreadView } from './service.js';
