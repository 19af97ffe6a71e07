import JoiModule, { type CustomHelpers, type ObjectSchema, type Root, type Schema, type StringSchema } from 'joi';
import { CALENDAR_DATE_RULE, INSTANT_RULE, MAX_INSTANT_LENGTH, parseInstant, parseIsoDate } from './dates.js';
import { MAX_ID_LENGTH } from './ids.js';
import { MEMBER_REFERENCE_META, type MemberReferenceRule } from './members.js';
import { isStorableText, TEXT_RULE } from './text.js';

/** joi with the platform's input rules built in (what `@wpk/sdk` exports as `Joi`). */
export interface PlatformJoi extends Root {
  /** An identifier: a string of 1-200 characters (any shape; an unknown one is a 404, not a 400). */
  id(): StringSchema;
  /** A `YYYY-MM-DD` date that exists on the calendar (2027-02-30 is refused, never rolled forward). */
  calendarDate(): StringSchema;
  /** An ISO 8601 date or instant of at most 40 characters whose every field is in range. */
  instant(): StringSchema;
  /**
   * A member id (UUID) that must name a member of the request's workspace: the platform checks it
   * after validation and answers 400 naming the field otherwise. `{ former: true }` also accepts
   * a member who was removed (an offboarding transfer's `from`).
   */
  memberId(options?: { former?: boolean }): StringSchema;
  /** A member MRN (`mrn:account:member:{id}`), checked like `memberId`. */
  memberMrn(options?: { former?: boolean }): StringSchema;
  /**
   * Any app's record by MRN (`mrn:{app}:{resource}:{id}`, at most 300 characters, trimmed; the
   * id keeps its case): what a record says it is for (`source_mrn`). The app it names is not asked.
   */
  mrn(): StringSchema;
  /** Path parameters that are all ids: `Joi.idParams('board_id', 'task_id')`. */
  idParams(...names: string[]): ObjectSchema;
  /**
   * A list route's query: the given filters, then `page` and `per_page`, which the platform reads
   * and forgives (a malformed value falls back to the default, never an error).
   */
  listQuery(filters?: Record<string, Schema>): ObjectSchema;
}

const textRule = { 'string.text': `{#label} ${TEXT_RULE}` };

// Every string schema refuses NUL and unpaired surrogates, after joi's own type check.
const withText = JoiModule.extend((joi) => ({
  type: 'string',
  base: joi.string(),
  messages: textRule,
  validate(value: unknown, helpers: CustomHelpers) {
    if (typeof value === 'string' && !isStorableText(value)) return { value, errors: helpers.error('string.text') };
    return undefined;
  },
})) as Root;

const calendarDate = (value: string, helpers: CustomHelpers) => (parseIsoDate(value) ? value : helpers.error('date.calendar'));
const instant = (value: string, helpers: CustomHelpers) => (parseInstant(value) ? value : helpers.error('date.instant'));

/**
 * joi whose `string()` refuses NUL and unpaired surrogates, plus `id()`, `calendarDate()` and
 * `instant()`. These three are plain string schemas (joi's `describe()` says `string`, with their
 * bounds and a named custom rule), so tooling that reads route schemas treats them as strings.
 */
export const Joi = withText as PlatformJoi;
Joi.id = () => withText.string().min(1).max(MAX_ID_LENGTH);
Joi.calendarDate = () => withText.string().custom(calendarDate, 'calendar date').messages({ 'date.calendar': `{#label} ${CALENDAR_DATE_RULE}` });
Joi.instant = () => withText.string().max(MAX_INSTANT_LENGTH).custom(instant, 'instant').messages({ 'date.instant': `{#label} ${INSTANT_RULE}` });

const UUID_TEXT = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const memberMark = (form: 'id' | 'mrn', options: { former?: boolean } = {}) => ({ [MEMBER_REFERENCE_META]: { form, rule: (options.former ? 'former' : 'active') satisfies MemberReferenceRule } });
Joi.memberId = (options) =>
  withText
    .string()
    .pattern(new RegExp(`^${UUID_TEXT}$`), 'member id')
    .messages({ 'string.pattern.name': '{#label} must be the id of a member of this workspace' })
    .meta(memberMark('id', options));
Joi.memberMrn = (options) =>
  withText
    .string()
    .pattern(new RegExp(`^mrn:account:member:${UUID_TEXT}$`), 'member MRN')
    .messages({ 'string.pattern.name': '{#label} must be a member MRN (mrn:account:member:<id>)' })
    .meta(memberMark('mrn', options));
Joi.mrn = () =>
  withText
    .string()
    .trim()
    .max(300)
    .pattern(/^mrn:[a-z0-9][a-z0-9._-]*:[a-z0-9][a-z0-9._-]*:[^:\s]+$/, 'MRN')
    .messages({ 'string.pattern.name': '{#label} must be an MRN (mrn:<app>:<resource>:<id>)' });
Joi.idParams = (...names) => withText.object(Object.fromEntries(names.map((name) => [name, Joi.id().required()])));
Joi.listQuery = (filters = {}) => withText.object({ ...filters, page: withText.any(), per_page: withText.any() });
