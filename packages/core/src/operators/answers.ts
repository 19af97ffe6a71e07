import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';

/** The records the operator routes and their workspace-side routes answer with. */

const uuid = () => Joi.string().guid();
const instant = () => Joi.date().iso();

export const RELEASE_NOTE: ObjectSchema = recordSchema({
  id: uuid(),
  version: Joi.string(),
  title: Joi.string(),
  body: Joi.string(),
  published_at: instant(),
}).id('ReleaseNote');

export const PREVIEW_APP: ObjectSchema = recordSchema({
  slug: Joi.string(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  adopters: Joi.number().integer().min(0),
  created_at: instant(),
}).id('PreviewApp');

export const ADOPTER: ObjectSchema = recordSchema({
  workspace_id: uuid(),
  subdomain: Joi.string(),
  name: Joi.string(),
  adopted_at: instant(),
}).id('PreviewAppAdopter');

export const ADOPTED_PREVIEW: ObjectSchema = recordSchema({
  slug: Joi.string(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  adopted_at: instant(),
}).id('AdoptedPreviewApp');

export const DEMO_REQUEST: ObjectSchema = recordSchema({
  id: uuid(),
  member_id: uuid(),
  email: Joi.string().allow(''),
  name: Joi.string().allow(''),
  message: Joi.string(),
  created_at: instant(),
}).id('DemoRequest');

/** What a DELETE of operator admin answers. */
export const DELETED_BY_ID: ObjectSchema = recordSchema({ id: uuid(), deleted: Joi.boolean().valid(true) }).id('DeletedById');

export const DELETED_ADOPTER: ObjectSchema = recordSchema({ slug: Joi.string(), workspace_id: uuid(), deleted: Joi.boolean().valid(true) }).id('DeletedAdopter');
