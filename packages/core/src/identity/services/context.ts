import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { RuntimeConfig } from '../../config.js';
import type { StagedEvent } from '../../events/index.js';
import type { Mailer } from '../../mail/index.js';
import type { WorkspaceService } from '../../tenancy/index.js';
import type { IdentityModels } from '../models/index.js';
import type { AvatarStorage } from './avatar-storage.js';
import type { PasswordHasher } from './passwords.js';
import type { KnownDevices } from './known-devices.js';
import type { SecretBox } from './secret-box.js';
import type { Throttle } from './throttle.js';

/** What identity's services share: the database, config, and the helpers built once at start-up. */
export interface IdentityContext {
  sequelize: Sequelize;
  /** Identity's models, bound to this runtime's connection. */
  models: IdentityModels;
  config: RuntimeConfig;
  logger: Logger;
  workspaces: WorkspaceService;
  passwords: PasswordHasher;
  secrets: SecretBox;
  /** Known-device cookies (OWASP device cookies), signed with the server secret. */
  devices: KnownDevices;
  throttle: Throttle;
  mailer: Mailer;
  avatars: AvatarStorage;
  /** The runtime's clock (`RuntimeSeams.clock`): where identity's services should read the time. */
  clock: () => Date;
}

/** Stages an event of the catalog; it leaves only if the unit of work commits. */
export type Stage = (event: StagedEvent) => void;

/** Where a request came from, for the activity trail and links in mails. */
export interface RequestOrigin {
  ip: string | null;
  /** `{scheme}://{host}` of the request, used to build links in mails. */
  baseUrl: string;
}

/** Emails are compared and stored lower-case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Staged event of the runtime (`system.*`). */
export function systemEvent(action: string, payload: Record<string, unknown>): StagedEvent {
  return { emitter: 'system', action, payload, metadata: {} };
}

/** Staged event of the account app (`core.account.*`). */
export function accountEvent(action: string, payload: Record<string, unknown>): StagedEvent {
  return { emitter: 'account', action, payload, metadata: {} };
}
