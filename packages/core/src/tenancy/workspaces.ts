import { ConflictError, InvalidError } from '@wpk/sdk';
import { UniqueConstraintError, type Sequelize } from 'sequelize';
import { defineWorkspaceModel, type Workspace } from './workspace-model.js';

/** Subdomains that name parts of the platform itself, never a tenant. */
export const RESERVED_SUBDOMAINS = new Set(['www', 'api', 'app', 'apps', 'admin', 'mail', 'smtp', 'static', 'assets', 'public', 'status', 'docs', 'help', 'support', 'broker', 'auth', 'login', 'signup', 'billing', 'cdn', 'ws']);

const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/;

/** Checks a requested subdomain; returns the normalised form or throws InvalidError. */
export function validateSubdomain(input: string): string {
  const subdomain = input.trim().toLowerCase();
  if (!SUBDOMAIN.test(subdomain) || subdomain.includes('--')) {
    throw new InvalidError('subdomain must be 3-63 characters of lowercase letters, digits and single hyphens, not starting or ending with a hyphen', { field: 'subdomain' });
  }
  if (RESERVED_SUBDOMAINS.has(subdomain)) throw new InvalidError(`subdomain "${subdomain}" is reserved`, { field: 'subdomain' });
  return subdomain;
}

export interface CreateWorkspaceInput {
  subdomain: string;
  name: string;
  plan?: string;
}

/** Workspace lifecycle: creation and look-up. */
export class WorkspaceService {
  /** The Workspace model bound to this runtime's connection. */
  readonly model: typeof Workspace;

  constructor(sequelize: Sequelize) {
    this.model = defineWorkspaceModel(sequelize);
  }

  async create(input: CreateWorkspaceInput): Promise<Workspace> {
    const subdomain = validateSubdomain(input.subdomain);
    const name = input.name.trim();
    if (name.length < 1 || name.length > 200) throw new InvalidError('name must be 1-200 characters');
    try {
      return await this.model.create({ subdomain, name, plan: input.plan ?? 'free' });
    } catch (error) {
      if (error instanceof UniqueConstraintError) throw new ConflictError(`subdomain "${subdomain}" is already taken`, { field: 'subdomain' });
      throw error;
    }
  }

  /** The active workspace on this subdomain, or null. */
  async findBySubdomain(subdomain: string): Promise<Workspace | null> {
    return this.model.findOne({ where: { subdomain: subdomain.toLowerCase(), status: 'active' } });
  }

  async findById(id: string): Promise<Workspace | null> {
    return this.model.findByPk(id);
  }
}
