import { Joi, type JoiSchema, type JoiStringSchema } from '@wpk/sdk';

/**
 * joi fragments the app's routes share. Bounds the specification gives are kept verbatim; the
 * closed sets it leaves unlisted are the app's decisions
 * (docs/decisions/0140-ats-jobs.md to 0146-ats-messages.md).
 */
export const id = (): JoiStringSchema => Joi.id();
export const text = (max: number): JoiStringSchema => Joi.string().max(max).allow('');
export const instant = (): JoiStringSchema => Joi.instant();
/** `notify_candidate` (mail the candidate about the operation) and `template_id` (which mail; default the operation's built-in one). */
export const notifyFields = (): Record<string, JoiSchema> => ({ notify_candidate: Joi.boolean(), template_id: Joi.string().max(100) });
/** An amount: a JSON number or a decimal string (exact). */
export const amount = (): JoiSchema => Joi.alternatives(Joi.number().min(0).max(999_999_999_999.99), Joi.string().trim().pattern(/^\d{1,12}(\.\d{1,2})?$/).messages({ 'string.pattern.base': '{#label} must be a decimal amount such as 120000.50' }));
/** An ISO 4217 currency code. */
export const currency = (): JoiStringSchema => Joi.string().trim().pattern(/^[A-Za-z]{3}$/).max(3).messages({ 'string.pattern.base': '{#label} must be a three-letter currency code' });

export const WORKPLACE_TYPES = ['on_site', 'hybrid', 'remote'] as const;
export const EMPLOYMENT_TYPES = ['full_time', 'part_time', 'contract', 'temporary', 'internship'] as const;
export const HIRING_TEAM_ROLES = ['hiring_manager', 'recruiter', 'coordinator', 'interviewer', 'sourcer'] as const;
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const QUESTION_TYPES = ['short_text', 'long_text', 'yes_no', 'single_select', 'multi_select', 'number', 'url'] as const;
export const CAREERS_VISIBILITY = ['public', 'internal', 'hidden'] as const;
export const PANEL_ROLES = ['interviewer', 'lead', 'shadow', 'note_taker'] as const;
export const OFFER_PERIODS = ['year', 'month', 'week', 'hour'] as const;
