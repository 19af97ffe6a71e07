import { createHash, randomBytes } from 'node:crypto';
import { ConflictError, InvalidError, NotFoundError } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';

/** An operator credential: `wpo_` and 32 base62 characters. */
export const OPERATOR_MARK = 'wpo_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface OperatorView {
  id: string;
  email: string;
  name: string;
  prefix: string;
  created_at: string;
}

export interface PreviewAppView {
  slug: string;
  name: string;
  description: string;
  adopters: number;
  created_at: string;
}

/** A preview app as the workspace that adopted it sees it. */
export interface AdoptedPreviewView {
  slug: string;
  name: string;
  description: string;
  adopted_at: string;
}

/** A demo request made from inside a workspace. */
export interface DemoRequestView {
  id: string;
  member_id: string;
  email: string;
  name: string;
  message: string;
  created_at: string;
}

export interface AdopterView {
  workspace_id: string;
  subdomain: string;
  name: string;
  adopted_at: string;
}

function newSecret(): string {
  let body = '';
  while (body.length < 32) {
    for (const byte of randomBytes(48)) if (byte < 248 && body.length < 32) body += ALPHABET[byte % 62];
  }
  return `${OPERATOR_MARK}${body}`;
}

const hash = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The people who run the platform (docs/operators.md): their credentials (made by
 * `wpk operator add`, never through HTTP), and the preview apps offered to chosen workspaces.
 */
export class OperatorService {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly clock: () => Date,
  ) {}

  /** Adds an operator, or gives an existing one (same e-mail) a new credential; the secret is returned once. */
  async add(email: string, name: string): Promise<{ operator: OperatorView; secret: string }> {
    const normalized = email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalized) || normalized.length > 254) throw new InvalidError('email must be an e-mail address');
    if (name.trim().length < 1 || name.length > 100) throw new InvalidError('name must be 1-100 characters');
    const secret = newSecret();
    const [row] = await this.sequelize.query<Record<string, unknown>>(
      `INSERT INTO platform.operators (email, name, prefix, secret_hash, created_at) VALUES (:email, :name, :prefix, :hash, :now)
       ON CONFLICT (lower(email)) DO UPDATE SET name = EXCLUDED.name, prefix = EXCLUDED.prefix, secret_hash = EXCLUDED.secret_hash
       RETURNING id, email, name, prefix, created_at`,
      { type: QueryTypes.SELECT, replacements: { email: normalized, name: name.trim(), prefix: secret.slice(0, 12), hash: hash(secret), now: this.clock() } },
    );
    return { operator: present(row), secret };
  }

  async list(): Promise<OperatorView[]> {
    return (await this.sequelize.query<Record<string, unknown>>('SELECT id, email, name, prefix, created_at FROM platform.operators ORDER BY created_at, email', { type: QueryTypes.SELECT })).map(present);
  }

  /** Removes an operator by e-mail; false when there was none. */
  async remove(email: string): Promise<boolean> {
    const [, meta] = (await this.sequelize.query('DELETE FROM platform.operators WHERE lower(email) = lower(:email)', { replacements: { email: email.trim() } })) as [unknown, { rowCount?: number }];
    return Boolean(meta?.rowCount);
  }

  /** The operator a presented credential belongs to, or null. */
  async authenticate(secret: string): Promise<OperatorView | null> {
    if (!secret.startsWith(OPERATOR_MARK) || secret.length !== OPERATOR_MARK.length + 32) return null;
    const [row] = await this.sequelize.query<Record<string, unknown>>('SELECT id, email, name, prefix, created_at FROM platform.operators WHERE secret_hash = :hash', {
      type: QueryTypes.SELECT,
      replacements: { hash: hash(secret) },
    });
    return row ? present(row) : null;
  }

  // Preview apps and their adopters.

  async createPreviewApp(input: { slug: string; name: string; description?: string }): Promise<PreviewAppView> {
    const [taken] = await this.sequelize.query('SELECT 1 FROM platform.preview_apps WHERE slug = :slug', { type: QueryTypes.SELECT, replacements: { slug: input.slug } });
    if (taken) throw new ConflictError(`A preview app ${input.slug} exists already`);
    await this.sequelize.query('INSERT INTO platform.preview_apps (slug, name, description, created_at) VALUES (:slug, :name, :description, :now)', {
      replacements: { slug: input.slug, name: input.name, description: input.description ?? '', now: this.clock() },
    });
    return this.previewApp(input.slug);
  }

  async previewApps(): Promise<PreviewAppView[]> {
    const rows = await this.sequelize.query<Record<string, unknown>>(
      'SELECT p.slug, p.name, p.description, p.created_at, (SELECT count(*)::int FROM platform.preview_app_adopters a WHERE a.app_slug = p.slug) AS adopters FROM platform.preview_apps p ORDER BY p.slug',
      { type: QueryTypes.SELECT },
    );
    return rows.map(presentApp);
  }

  async previewApp(slug: string): Promise<PreviewAppView> {
    const found = (await this.previewApps()).find((app) => app.slug === slug);
    if (!found) throw new NotFoundError(`No preview app ${slug}`);
    return found;
  }

  async adopters(slug: string): Promise<AdopterView[]> {
    await this.previewApp(slug);
    const rows = await this.sequelize.query<Record<string, unknown>>(
      'SELECT a.workspace_id, w.subdomain, w.name, a.adopted_at FROM platform.preview_app_adopters a JOIN platform.workspaces w ON w.id = a.workspace_id WHERE a.app_slug = :slug ORDER BY a.adopted_at, w.subdomain',
      { type: QueryTypes.SELECT, replacements: { slug } },
    );
    return rows.map(presentAdopter);
  }

  /** Lets a workspace into a preview app; adopting twice is a 409. */
  async adopt(slug: string, workspaceId: string): Promise<AdopterView> {
    await this.previewApp(slug);
    const [workspace] = UUID.test(workspaceId) ? await this.sequelize.query('SELECT id FROM platform.workspaces WHERE id = :workspaceId', { type: QueryTypes.SELECT, replacements: { workspaceId } }) : [];
    if (!workspace) throw new NotFoundError(`No workspace ${workspaceId}`);
    const [exists] = await this.sequelize.query('SELECT 1 FROM platform.preview_app_adopters WHERE workspace_id = :workspaceId AND app_slug = :slug', { type: QueryTypes.SELECT, replacements: { workspaceId, slug } });
    if (exists) throw new ConflictError(`Workspace ${workspaceId} has adopted ${slug} already`);
    await this.sequelize.query('INSERT INTO platform.preview_app_adopters (workspace_id, app_slug, adopted_at) VALUES (:workspaceId, :slug, :now)', { replacements: { workspaceId, slug, now: this.clock() } });
    const [row] = await this.sequelize.query<Record<string, unknown>>(
      'SELECT a.workspace_id, w.subdomain, w.name, a.adopted_at FROM platform.preview_app_adopters a JOIN platform.workspaces w ON w.id = a.workspace_id WHERE a.workspace_id = :workspaceId AND a.app_slug = :slug',
      { type: QueryTypes.SELECT, replacements: { workspaceId, slug } },
    );
    return presentAdopter(row);
  }

  /** The preview apps a workspace was let into, by name. */
  async adoptedBy(workspaceId: string): Promise<AdoptedPreviewView[]> {
    const rows = await this.sequelize.query<Record<string, unknown>>(
      'SELECT p.slug, p.name, p.description, a.adopted_at FROM platform.preview_app_adopters a JOIN platform.preview_apps p ON p.slug = a.app_slug WHERE a.workspace_id = :workspaceId ORDER BY p.name, p.slug',
      { type: QueryTypes.SELECT, replacements: { workspaceId } },
    );
    return rows.map((row) => ({ slug: row.slug as string, name: row.name as string, description: row.description as string, adopted_at: new Date(row.adopted_at as string).toISOString() }));
  }

  // Demo requests from inside a workspace.

  /** Stores a demo request (in the caller's transaction); the caller mails it to the operator after commit. */
  async requestDemo(workspaceId: string, memberId: string, message: string): Promise<DemoRequestView> {
    const [row] = await this.sequelize.query<{ id: string }>('INSERT INTO platform.demo_requests (workspace_id, member_id, message, created_at) VALUES (:workspaceId, :memberId, :message, :now) RETURNING id', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId, memberId, message, now: this.clock() },
    });
    return (await this.demoRequests(workspaceId, { offset: 0, limit: 1 }, row.id)).rows[0];
  }

  /** The workspace's demo requests, newest first, with who asked. */
  async demoRequests(workspaceId: string, page: { offset: number; limit: number }, id?: string): Promise<{ rows: DemoRequestView[]; total: number }> {
    const filter = `d.workspace_id = :workspaceId${id ? ' AND d.id = :id' : ''}`;
    const [count] = await this.sequelize.query<{ total: number }>(`SELECT count(*)::int AS total FROM platform.demo_requests d WHERE ${filter}`, { type: QueryTypes.SELECT, replacements: { workspaceId, id } });
    const rows = await this.sequelize.query<Record<string, unknown>>(
      `SELECT d.id, d.member_id, a.email, a.name, d.message, d.created_at FROM platform.demo_requests d
         LEFT JOIN platform.members m ON m.workspace_id = d.workspace_id AND m.id = d.member_id LEFT JOIN platform.accounts a ON a.id = m.account_id
        WHERE ${filter} ORDER BY d.created_at DESC, d.id LIMIT :limit OFFSET :offset`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, id, limit: page.limit, offset: page.offset } },
    );
    return {
      total: count.total,
      rows: rows.map((row) => ({ id: row.id as string, member_id: row.member_id as string, email: (row.email as string | null) ?? '', name: (row.name as string | null) ?? '', message: row.message as string, created_at: new Date(row.created_at as string).toISOString() })),
    };
  }

  /** Takes a workspace out of a preview app (404 when it had not adopted it). */
  async removeAdopter(slug: string, workspaceId: string): Promise<void> {
    await this.previewApp(slug);
    const [, meta] = UUID.test(workspaceId)
      ? ((await this.sequelize.query('DELETE FROM platform.preview_app_adopters WHERE workspace_id = :workspaceId AND app_slug = :slug', { replacements: { workspaceId, slug } })) as [unknown, { rowCount?: number }])
      : [null, { rowCount: 0 }];
    if (!meta?.rowCount) throw new NotFoundError(`Workspace ${workspaceId} has not adopted ${slug}`);
  }
}

function present(row: Record<string, unknown>): OperatorView {
  return { id: row.id as string, email: row.email as string, name: row.name as string, prefix: row.prefix as string, created_at: new Date(row.created_at as string).toISOString() };
}

function presentApp(row: Record<string, unknown>): PreviewAppView {
  return { slug: row.slug as string, name: row.name as string, description: row.description as string, adopters: Number(row.adopters), created_at: new Date(row.created_at as string).toISOString() };
}

function presentAdopter(row: Record<string, unknown>): AdopterView {
  return { workspace_id: row.workspace_id as string, subdomain: row.subdomain as string, name: row.name as string, adopted_at: new Date(row.adopted_at as string).toISOString() };
}
