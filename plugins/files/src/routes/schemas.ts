import { Joi, type JoiStringSchema } from '@wpk/sdk';

/** An id of any shape (an unknown one is a 404 from the service). */
export const id = (): JoiStringSchema => Joi.id();

/** A file or folder name (the service checks its characters). */
export const itemName = (): JoiStringSchema => Joi.string().trim().min(1).max(255);

