import { Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { MESSAGE_TRIGGERS } from '../services/messages.js';

/**
 * The records the app answers with, as the routes declare them (`answers`): the OpenAPI
 * document, the typed client and the harness's response checks read them. Declared so far for
 * the message history; the other routes answer the platform's envelopes without a record schema.
 */

const uuid = () => Joi.string().guid();
const instant = () => Joi.date().iso();

export const MESSAGE: JoiObjectSchema = recordSchema({
  id: uuid(),
  workspace_id: uuid(),
  candidate_id: uuid(),
  application_id: uuid().allow(null),
  template_id: uuid().allow(null),
  trigger: Joi.string().valid(...MESSAGE_TRIGGERS),
  to_email: Joi.string(),
  reply_to: Joi.string().allow(null),
  subject: Joi.string(),
  body_html: Joi.string(),
  body_text: Joi.string(),
  calendar_method: Joi.string().valid('REQUEST', 'CANCEL').allow(null).description('The iCalendar method of the invitation the mail carried'),
  sent_by: Joi.string().allow(null).description("The sending member's MRN; null when the candidate's own pick sent it"),
  created_at: instant(),
  updated_at: instant(),
}).id('AtsMessage');
