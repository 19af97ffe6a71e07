import { ListScreen, type ListTable, type TableColumn } from '@wpk/ui';
import type { Goal } from '../api.js';

const OWNERS: Record<string, string> = { member: 'Person', department: 'Department', company: 'Company' };
const STATES: Record<string, string> = { active: 'Active', completed: 'Completed', cancelled: 'Cancelled' };

/** `/`: the goals by title, searchable, with their owner and their progress over the key results. */
export class GrowthGoals extends ListScreen<Goal> {
  protected readonly heading = 'Goals';

  protected readonly columns: TableColumn<Goal>[] = [
    { key: 'title', label: 'Goal', render: (goal) => goal.title },
    { key: 'owner_type', label: 'Owner', render: (goal) => OWNERS[goal.owner_type] ?? goal.owner_type },
    { key: 'progress', label: 'Progress', render: (goal) => `${goal.progress}%` },
    { key: 'status', label: 'State', render: (goal) => STATES[goal.status] ?? goal.status },
  ];

  protected table(): ListTable<Goal> {
    return { caption: "The workspace's goals", source: '/growth/goals', filter: 'Search goals', empty: 'No goal yet.' };
  }
}

customElements.define('growth-goals', GrowthGoals);
