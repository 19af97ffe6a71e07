/**
 * What Contacts' tests need beyond `startWorld` of @wpk/testing: the Companies app beside it
 * (loaded from its folder, as the platform loads it: no import across apps), installed too, and
 * stand-ins declaring the catalog's chat and calls events and the Mail app's mailbox and message
 * events, so they can be delivered to Contacts as the broker would. `takeEvents` keeps the
 * Companies app's events too, since Contacts reacts to them.
 */
import { fileURLToPath } from 'node:url';
import { prepareWorld, startWorld, type World } from '@wpk/testing';
import app from '../../src/index.js';
import mailEvents from '../fixtures/mail-events/index.js';
import talk from '../fixtures/talk/index.js';

export const COMPANIES_DIR = fileURLToPath(new URL('../../../companies', import.meta.url));

export async function startContactsWorld(subdomain: string): Promise<World> {
  const world = await startWorld({ app, subdomain, apps: [COMPANIES_DIR, talk, mailEvents] });
  await prepareWorld(world, () => world.workspace.install('companies'));
  world.platform.takeEvents();
  const watched = (action: string) => action.startsWith('core.contacts.') || action.startsWith('core.companies.');
  world.takeEvents = () => world.platform.takeEvents().filter((event) => watched(event.action)).map((event) => ({ action: event.action, payload: event.payload }));
  return world;
}
