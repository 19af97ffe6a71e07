/**
 * The Contacts app's test fixture, built on @wpk/testing: a real platform with the Contacts app,
 * the Companies app (loaded from its folder, as the platform loads it: no import across apps)
 * a stand-in declaring the catalog's chat and calls events and one declaring the Mail app's
 * mailbox and message events, all first-party; one workspace
 * where Contacts and Companies are installed (policy `roles`).
 */
import { fileURLToPath } from 'node:url';
import { createTestPlatform, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import app from '../../src/index.js';
import mailEvents from '../fixtures/mail-events/index.js';
import talk from '../fixtures/talk/index.js';

export interface CapturedEvent {
  action: string;
  payload: Record<string, unknown>;
}

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  owner: TestMember;
  /** A member allowed into Contacts (and Companies) holding exactly these keys. */
  member(keys: string[]): Promise<TestMember>;
  /** The `core.contacts.*` and `core.companies.*` events written since the last call, oldest first. */
  takeEvents(): CapturedEvent[];
  /** Delivers an event to the Contacts app through the signed delivery path; throws unless it handled it. */
  deliver(action: string, payload: Record<string, unknown>, metadata?: Record<string, unknown>, workspaceId?: string): Promise<void>;
  close(): Promise<void>;
}

export const COMPANIES_DIR = fileURLToPath(new URL('../../../companies', import.meta.url));

export async function startWorld(subdomain: string): Promise<World> {
  const platform = await createTestPlatform({ apps: [app, COMPANIES_DIR, talk, mailEvents], firstParty: true });
  try {
    const workspace = await platform.workspace(subdomain);
    await workspace.install('contacts');
    await workspace.install('companies');
    platform.takeEvents();
    return {
      platform,
      workspace,
      owner: workspace.owner,
      member: (keys) => workspace.member({ permissions: keys }),
      takeEvents: () =>
        platform
          .takeEvents()
          .filter((event) => event.action.startsWith('core.contacts.') || event.action.startsWith('core.companies.'))
          .map((event) => ({ action: event.action, payload: event.payload })),
      async deliver(action, payload, metadata = {}, workspaceId = workspace.id) {
        const result = await platform.deliver(workspaceId, action, payload, metadata);
        if (result.contacts !== 'handled') throw new Error(`${action} was not handled by contacts: ${JSON.stringify(result)}`);
      },
      close: () => platform.close(),
    };
  } catch (error) {
    await platform.close();
    throw error;
  }
}
