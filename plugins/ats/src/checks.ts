import { isUuid } from '@wpk/sdk';
import { check } from './kit.js';

/**
 * Named checks of the authorization table. They run before validation, on the raw path
 * parameters; an id that is no uuid or names no record passes, so the request goes on to answer
 * 400 or 404 instead of a misleading 403.
 *
 * The app's exception grant: a member asked for a scorecard on an application, or sitting on one
 * of its interview panels, may read that one application without `ats.applications.read`
 * (`application_evaluator`), and submit or decline their own scorecard (`evaluation_evaluator`).
 * Such a grant-scoped caller holds no `ats.candidates.view`, so matches are never offered to them.
 */
const evaluationEvaluator = check(async (request, ctx) => {
  const id = request.params.evaluation_id;
  if (!isUuid(id)) return true;
  const evaluation = await ctx.db.evaluations.findById(id);
  return evaluation === null || evaluation.evaluator_mrn === ctx.member.mrn;
});

const applicationEvaluator = check(async (request, ctx) => {
  const id = request.params.application_id;
  if (!isUuid(id)) return true;
  if (!(await ctx.db.applications.findById(id))) return true;
  if ((await ctx.db.evaluations.count({ where: { application_id: id, evaluator_mrn: ctx.member.mrn } })) > 0) return true;
  const interviews = await ctx.db.interviews.findAll({ where: { application_id: id }, attributes: ['id', 'panel'] });
  return interviews.some((interview) => interview.panel.some((member) => member.member_mrn === ctx.member.mrn));
});

/** The named checks the authorization table uses. */
export const checks = { evaluation_evaluator: evaluationEvaluator, application_evaluator: applicationEvaluator };
