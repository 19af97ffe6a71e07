/** What the Rooms app's tests share beyond `startWorld` of @wpk/testing: the app's keys and its people (sockets: `listenForSockets` of @wpk/testing). */
import { prepareWorld, startWorld, type TestMember, type World } from '@wpk/testing';
import app from '../../src/index.js';

/** Every key of the app but `rooms.rooms.manage`: what `world.member()` holds. */
export const ALL_KEYS = ['rooms.rooms.create', 'rooms.rooms.read', 'rooms.sessions.join'];

/** The Rooms tests' world in `subdomain`: Ann and Bob hold ALL_KEYS, Cid may only read rooms and join their sessions. */
export async function roomsWorld(subdomain: string): Promise<{ world: World; ann: TestMember; bob: TestMember; cid: TestMember }> {
  const world = await startWorld({ app, subdomain, memberKeys: ALL_KEYS });
  return prepareWorld(world, async () => {
    const [ann, bob] = await world.members(2);
    return { world, ann, bob, cid: await world.member(['rooms.rooms.read', 'rooms.sessions.join']) };
  });
}
