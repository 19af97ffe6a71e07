import { systemClock } from '../clock.js';
import { ConflictError, InvalidError, NotFoundError } from '@wpk/sdk';
import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { CallerMember } from '../access/index.js';
import type { RuntimeConfig } from '../config.js';
import type { EventSink } from '../events/index.js';
import { runUnitOfWork } from '../server/index.js';
import type { Mailer } from '../mail/index.js';
import type { WorkspaceService } from '../tenancy/index.js';
import { defineIdentityModels } from './models/index.js';
import { ActivityLog } from './services/activity.js';
import { AdminAudit } from './services/admin-audit.js';
import type { AvatarStorage } from './services/avatar-storage.js';
import { AvatarService } from './services/avatars.js';
import { normalizeEmail, type IdentityContext, type Stage } from './services/context.js';
import { InvitationService } from './services/invitations.js';
import { KnownDevices } from './services/known-devices.js';
import { MemberService } from './services/members.js';
import { PasswordHasher } from './services/passwords.js';
import { PasswordResetService } from './services/password-resets.js';
import { RoleService } from './services/roles.js';
import { loadSecretKey, SecretBox } from './services/secret-box.js';
import { findAccountByEmail, SessionService } from './services/sessions.js';
import { SignupService } from './services/signup.js';
import { Throttle } from './services/throttle.js';
import { TwoFactorService } from './services/two-factor.js';
import { WorkspaceAdminService } from './services/workspace-admin.js';
import type { ApiKeyAuthenticator } from './http/auth-scheme.js';

export interface IdentityServiceOptions {
  sequelize: Sequelize;
  config: RuntimeConfig;
  logger: Logger;
  workspaces: WorkspaceService;
  mailer: Mailer;
  /** Where committed events go (the event bus's outbox). */
  events: EventSink;
  /** Judges `Authorization: Bearer slk_...` (the api-keys concern's); without one such requests get 401. */
  apiKeys?: ApiKeyAuthenticator | null;
  /** The runtime's clock (`RuntimeSeams.clock`); default `() => new Date()`. */
  clock?: () => Date;
  /** Avatar storage: the platform's file storage (the `storage` plugin's). */
  avatars: AvatarStorage;
}

/** Input of `createWorkspaceWithOwner`. */
export interface CreateWorkspaceWithOwnerInput {
  subdomain: string;
  name: string;
  ownerEmail: string;
  ownerPassword: string;
  ownerName?: string;
}

/** Input of `addMember`. */
export interface AddMemberInput {
  workspaceId: string;
  email: string;
  password: string;
  platformRole: 'admin' | 'member';
  name?: string;
}

/** The demo workspace `wpk dev` seeds. */
export const DEMO = { subdomain: 'demo', name: 'Demo', ownerEmail: 'owner@demo.test', ownerPassword: 'demo-owner-password', ownerName: 'Demo Owner' } as const;

const MIN_PASSWORD = 8;
const MAX_PASSWORD = 1024;

function checkPassword(password: string): void {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD) throw new InvalidError(`password length must be at least ${MIN_PASSWORD} characters long`, { field: 'password' });
  if (password.length > MAX_PASSWORD) throw new InvalidError(`password length must be less than or equal to ${MAX_PASSWORD} characters long`, { field: 'password' });
}

/**
 * Identity: accounts, members, roles, sessions, invitations, password resets, 2FA, elevation,
 * audit. Routes use the services below; the CLI and other concerns use the methods of this class.
 */
export class IdentityService {
  readonly context: IdentityContext;
  readonly activity: ActivityLog;
  readonly audit: AdminAudit;
  readonly members: MemberService;
  readonly twoFactor: TwoFactorService;
  readonly sessions: SessionService;
  readonly signups: SignupService;
  readonly invitations: InvitationService;
  readonly passwordResets: PasswordResetService;
  readonly roles: RoleService;
  readonly workspaceAdmin: WorkspaceAdminService;
  readonly avatars: AvatarService;
  private constructor(
    context: IdentityContext,
    private readonly events: EventSink,
    private readonly apiKeyAuthenticator: ApiKeyAuthenticator | null,
  ) {
    this.context = context;
    this.activity = new ActivityLog(context.sequelize);
    this.audit = new AdminAudit(context.sequelize);
    this.members = new MemberService(context, this.activity);
    this.twoFactor = new TwoFactorService(context, this.activity);
    this.sessions = new SessionService(context, this.twoFactor, this.activity, this.audit);
    this.signups = new SignupService(context, this.activity);
    this.invitations = new InvitationService(context, this.members, this.twoFactor, this.activity);
    this.passwordResets = new PasswordResetService(context, this.activity);
    this.roles = new RoleService(context, this.activity);
    this.workspaceAdmin = new WorkspaceAdminService(context, this.activity);
    this.avatars = new AvatarService(context, this.members, this.activity);
  }

  static async create(options: IdentityServiceOptions): Promise<IdentityService> {
    const secret = await loadSecretKey(options.config.secretKey, options.config.dataDir);
    const secrets = new SecretBox(secret);
    const clock = options.clock ?? systemClock;
    const context: IdentityContext = {
      sequelize: options.sequelize,
      models: defineIdentityModels(options.sequelize),
      config: options.config,
      logger: options.logger,
      workspaces: options.workspaces,
      passwords: new PasswordHasher(options.config.scryptLogN, options.config.passwordHashing),
      secrets,
      devices: new KnownDevices(secrets, clock),
      throttle: new Throttle(options.sequelize, options.clock),
      mailer: options.mailer,
      avatars: options.avatars,
      clock,
    };
    return new IdentityService(context, options.events, options.apiKeys ?? null);
  }

  /** The event sink in use now. */
  eventSink(): EventSink {
    return this.events;
  }

  /** The API-key authenticator `Bearer slk_...` requests are judged by (on the key alone, never falling back to the cookie), or null. */
  apiKeys(): ApiKeyAuthenticator | null {
    return this.apiKeyAuthenticator;
  }

  /**
   * The caller a member id stands for when that member may act now (joined, not deactivated,
   * active workspace), read fresh from the database; null otherwise. API keys call this on every
   * request so deactivation takes effect at once.
   */
  callerForMember(workspaceId: string, memberId: string): Promise<CallerMember | null> {
    return this.members.callerForMember(workspaceId, memberId);
  }

  /** Runs `work` in one transaction outside any request; staged events commit with it. */
  private async unitOfWork<T extends { workspaceId: string }>(work: (stage: Stage) => Promise<T>): Promise<T> {
    return runUnitOfWork(this.context.sequelize, this.events, (value) => value.workspaceId, (unit) => work(unit.stage));
  }

  /**
   * A workspace with a joined owner (the CLI's `wpk workspace create --owner-email --owner-password`).
   * An existing account keeps its password, which must then be the one given.
   */
  async createWorkspaceWithOwner(input: CreateWorkspaceWithOwnerInput): Promise<{ workspaceId: string; subdomain: string; accountId: string; memberId: string }> {
    checkPassword(input.ownerPassword);
    const passwordHash = await this.passwordHashFor(input.ownerEmail, input.ownerPassword);
    return this.unitOfWork(async (stage) => {
      const created = await this.signups.createWorkspaceWithOwner(
        { subdomain: input.subdomain, name: input.name, ownerEmail: input.ownerEmail, ownerPasswordHash: passwordHash, ownerName: input.ownerName, emailVerified: true },
        stage,
      );
      await this.activity.record({ workspaceId: created.workspace.id, actor: null, action: 'workspace.created', targetType: 'workspace', targetId: created.workspace.id, details: { via: 'cli' } });
      return { workspaceId: created.workspace.id, subdomain: created.workspace.subdomain, accountId: created.account.id, memberId: created.member.id };
    });
  }

  /** Alias of `createWorkspaceWithOwner`. */
  createAccountWithOwner(input: CreateWorkspaceWithOwnerInput): ReturnType<IdentityService['createWorkspaceWithOwner']> {
    return this.createWorkspaceWithOwner(input);
  }

  /**
   * A joined member with a password (the CLI's `wpk member add`). An existing account keeps its
   * password, which must then be the one given; an invited or deactivated member becomes joined.
   */
  async addMember(input: AddMemberInput): Promise<{ workspaceId: string; accountId: string; memberId: string }> {
    checkPassword(input.password);
    if (input.platformRole !== 'admin' && input.platformRole !== 'member') throw new InvalidError('platform_role must be one of [admin, member]', { field: 'platform_role' });
    const workspace = await this.context.workspaces.findById(input.workspaceId);
    if (!workspace || workspace.status !== 'active') throw new NotFoundError(`No workspace ${input.workspaceId}`);
    const passwordHash = await this.passwordHashFor(input.email, input.password);
    return this.unitOfWork(async (stage) => {
      const { account } = await this.signups.ensureAccount(input.email, passwordHash, input.name, true);
      let member = await this.context.models.Member.findOne({ where: { workspace_id: workspace.id, account_id: account.id } });
      if (member?.state === 'joined' && !member.deactivated_at) throw new ConflictError(`${account.email} is already a member of ${workspace.subdomain}`);
      if (member?.platform_role === 'owner') throw new ConflictError(`${account.email} owns ${workspace.subdomain}`);
      if (member) {
        member.state = 'joined';
        member.platform_role = input.platformRole;
        member.deactivated_at = null;
        member.joined_at = new Date();
        await member.save();
      } else {
        member = await this.context.models.Member.create({ workspace_id: workspace.id, account_id: account.id, platform_role: input.platformRole, state: 'joined', deactivated_at: null, invited_by: null, joined_at: new Date() });
      }
      stage({ emitter: 'system', action: 'system.workspace.member.added', payload: { member_id: member.id, role: member.platform_role }, metadata: {} });
      await this.activity.record({ workspaceId: workspace.id, actor: null, action: 'member.added', targetType: 'member', targetId: member.id, details: { email: account.email, platform_role: member.platform_role, via: 'cli' } });
      return { workspaceId: workspace.id, accountId: account.id, memberId: member.id };
    });
  }

  /**
   * Seeds the demo workspace (`wpk dev`): `demo` with owner `owner@demo.test` /
   * `demo-owner-password`. Does nothing when it exists.
   */
  async seedDemo(): Promise<{ created: boolean; subdomain: string; ownerEmail: string; ownerPassword: string }> {
    const existing = await this.context.workspaces.findBySubdomain(DEMO.subdomain);
    if (!existing) {
      try {
        await this.createWorkspaceWithOwner({ subdomain: DEMO.subdomain, name: DEMO.name, ownerEmail: DEMO.ownerEmail, ownerPassword: DEMO.ownerPassword, ownerName: DEMO.ownerName });
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        return { created: false, subdomain: DEMO.subdomain, ownerEmail: DEMO.ownerEmail, ownerPassword: DEMO.ownerPassword };
      }
    }
    return { created: !existing, subdomain: DEMO.subdomain, ownerEmail: DEMO.ownerEmail, ownerPassword: DEMO.ownerPassword };
  }

  /** Hash for a new account, or a check that an existing account's password is this one. */
  private async passwordHashFor(email: string, password: string): Promise<string> {
    const existing = await findAccountByEmail(this.context.models, normalizeEmail(email));
    // The runtime's own work (CLI, seeding): not bounded per client address.
    if (existing?.password_hash && !(await this.context.passwords.verify(password, existing.password_hash, 'runtime'))) {
      throw new ConflictError(`An account for ${normalizeEmail(email)} already exists with another password`);
    }
    return this.context.passwords.hash(password, 'runtime');
  }

  /** Removes expired throttle entries and sessions. */
  async prune(): Promise<void> {
    await this.context.throttle.prune();
    await this.sessions.prune();
  }
}
