import { DataTypes, defineModel } from '@wpk/sdk';

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
export interface Company {
  id: string;
  name: string;
  domain: string | null;
  industry: string | null;
  size: CompanySize | null;
  description: string;
  address: CompanyAddress;
  owner_id: string;
  creator_id: string;
  revision: number;
  created_at: Date;
  updated_at: Date;
}

export const companies = defineModel<Company>('companies', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  name: { type: DataTypes.STRING(200), allowNull: false },
  domain: { type: DataTypes.STRING(253), allowNull: true },
  industry: { type: DataTypes.STRING(100), allowNull: true },
  size: { type: DataTypes.STRING(20), allowNull: true },
  description: { type: DataTypes.STRING(5000), allowNull: false, defaultValue: '' },
  address: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
  owner_id: { type: DataTypes.UUID, allowNull: false },
  creator_id: { type: DataTypes.UUID, allowNull: false },
  revision: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { companies };

/** The models' type, for typing contexts: `AppContext<Models>`. */
export type Models = typeof models;
