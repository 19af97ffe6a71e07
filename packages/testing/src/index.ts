/**
 * @wpk/testing: the test harness for Workspace Platform Kit apps. It boots the real runtime with
 * your app on an embedded database (or a scratch database on TEST_DATABASE_URL), creates
 * workspaces and members with roles and API keys, sends requests, and captures events.
 */
import { TestPlatform, type TestPlatformOptions } from './platform.js';

export { TestClock } from './clock.js';
export { listenForSockets, openSocket, openWelcomedSocket, quiet, subscribeChannel } from './sockets.js';
export type { RefusedUpgrade, SocketMessage, SocketOptions, TestSocket, WorldSockets } from './sockets.js';
export { API_VERSION, freePort, TestPlatform, TestWorkspace } from './platform.js';
export { startServerProcess, type ServerProcess } from './processes.js';
export { checkDropMigration, checkMatrixRows, ok, prepareWorld, startWorld } from './world.js';
export { docSections, documentedRoutes, manifestRoutes, testAppDoc, unnamedInDoc } from './docs.js';
export type { AppDocOptions, DocAssertions, DocManifest, DocTestFn, NameCheck } from './docs.js';
export type { DropAssertions, MatrixAssertions, World, WorldEvent, WorldOptions } from './world.js';
export type { CapturedEvent, CapturedSearchChange, DeliveryOutcome, MemberOptions, PermissionMatrixOptions, PermissionMatrixRow, TestApp, TestCaller, TestMember, TestPlatformOptions, TestResponse } from './platform.js';

/** Boots a test platform with your apps: `const platform = await createTestPlatform({ apps: [app] })`. */
export function createTestPlatform(options: TestPlatformOptions): Promise<TestPlatform> {
  return TestPlatform.create(options);
}
