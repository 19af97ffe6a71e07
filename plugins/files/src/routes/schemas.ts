import { Joi, type JoiObjectSchema, type JoiSchema, type JoiStringSchema } from '@wpk/sdk';

/** An id of any shape (an unknown one is a 404 from the service). */
export const id = (): JoiStringSchema => Joi.id();

/** Path parameters: each named one must be an id. */
export const idParams = (...names: string[]): JoiObjectSchema => Joi.object(Object.fromEntries(names.map((name) => [name, id().required()])));

/** A list route's query: the given filters plus `page` and `per_page` (the platform forgives malformed ones). */
export const listQuery = (filters: Record<string, JoiSchema> = {}): JoiObjectSchema => Joi.object({ ...filters, page: Joi.any(), per_page: Joi.any() });

/** A file or folder name (the service checks its characters). */
export const itemName = (): JoiStringSchema => Joi.string().trim().min(1).max(255);

