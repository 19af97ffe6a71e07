import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { keepCompetency, type CompetencyPayload } from '../services/competencies.js';

/** Growth's payload (validated by the platform against Growth's app.json schema), as this app reads it. */
const read = (event: { payload: object }): CompetencyPayload => event.payload as unknown as CompetencyPayload;

/** The copy of Growth's competencies, which evaluation criteria name by `competency_mrn`. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.growth.competency.created': subscription('core.growth.competency.created', async (event, ctx) => void (await keepCompetency(ctx, read(event), false))),
  'core.growth.competency.updated': subscription('core.growth.competency.updated', async (event, ctx) => void (await keepCompetency(ctx, read(event), false))),
  'core.growth.competency.deleted': subscription('core.growth.competency.deleted', async (event, ctx) => void (await keepCompetency(ctx, read(event), true))),
};
