import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** The company sizes (employee ranges), smallest first; the specification leaves the set open. */
export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'] as const;
export type CompanySize = (typeof COMPANY_SIZES)[number];

/** A postal address; every part is optional text. */
export interface CompanyAddress {
  street?: string;
  city?: string;
  region?: string;
  postal_code?: string;
  country?: string;
}

/** A company record. `domain` is stored normalised (lower case, no scheme, no `www.`, no path). */
export type Company = DeclaredRow<typeof companies>;

export const companies = defineModel('companies', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  domain: column.string(253).nullable(),
  industry: column.string(100).nullable(),
  size: column.enum(COMPANY_SIZES, 20).nullable(),
  description: column.string(5000).default(''),
  address: column.json<CompanyAddress>().default({}),
  owner_id: column.uuid(),
  creator_id: column.uuid(),
  revision: column.integer().default(1),
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { companies };

/** The models' type, for typing contexts: `AppContext<Models>`. */
export type Models = typeof models;
