import { resource } from '../kit.js';

/**
 * The app's common records as SDK resources: get-or-404 in the workspace (another workspace's id
 * answers the same 404) and the keyset walk of a re-index. Their writes stay in the services,
 * which keep the app's own rules (keys, lanes, live channels, the events' board fan-out).
 */
const OLDEST_FIRST: Array<['created_at' | 'id', 'ASC']> = [['created_at', 'ASC'], ['id', 'ASC']];

export const boardResource = resource({ model: 'boards', label: 'Board', order: OLDEST_FIRST, searchColumns: ['title'] });
export const taskResource = resource({ model: 'tasks', label: 'Task', order: OLDEST_FIRST });
export const scheduleResource = resource({ model: 'schedules', label: 'Schedule', order: OLDEST_FIRST });
