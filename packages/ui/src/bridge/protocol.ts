/**
 * The bridge between the workspace shell (the host, on the workspace's origin, with the session)
 * and an app's front-end (its guest, in a sandboxed frame with an opaque origin and no cookie).
 * The frame opens it by posting `hello` with a MessagePort to its parent; every other message
 * travels on that port. docs/ui.md, "The bridge".
 */
export const BRIDGE_PROTOCOL = 'wpk.bridge.1';

/** The member the frame acts for, as the shell tells it. */
export interface BridgeMember {
  id: string;
  name: string;
  email: string;
  platform_role: 'owner' | 'admin' | 'member';
}

/** What the shell hands the frame once the bridge is open. */
export interface BridgeInit {
  /** The app's token: `Authorization: Bearer` on the app's routes; short-lived, renewed by the shell. */
  token: string;
  /** When the token expires (ISO instant). */
  expires_at: string;
  /** The `X-Api-Version` the shell pins. */
  api_version: string;
  app: { slug: string; name: string };
  member: BridgeMember;
  workspace: { id: string; name: string; subdomain: string };
  /** BCP 47 language tag and IANA time zone the member's dates and amounts are shown in. */
  locale: string;
  time_zone: string;
  /** The app's path in the shell's address bar (`/boards/42`), with its query. */
  route: string;
  /** The member's permission keys in the app (every declared one for owners and admins), renewed with the token: what the screens offer. The server still judges every request. */
  permissions: string[];
}

/** A member or a file chosen in one of the shell's pickers. */
export interface PickedMember {
  id: string;
  name: string;
  email: string;
}

/** Where the device is, as the browser reports it (the shell asks; the app's frame may not). */
export interface DevicePosition {
  latitude: number;
  longitude: number;
  /** The radius of the accuracy circle, in metres (rounded up). */
  accuracy_m: number;
}

/** One search result, as `GET /search` answers it. */
export interface SearchHit {
  type: string;
  id: string;
  title: string;
  subtitle: string;
  url: string;
  score?: number;
}

/** What a frame may ask of the shell, with what each answers. */
export interface BridgeRequests {
  /** Show the app at another of its own paths (the shell's address bar and history follow). */
  navigate: { input: { path: string; replace?: boolean }; output: null };
  /** Leave the app: a platform page or another app (a same-origin path only). */
  open: { input: { href: string }; output: null };
  /** The document title (`{title} · {app}`). */
  title: { input: { title: string }; output: null };
  toast: { input: { message: string; variant?: 'success' | 'danger' | 'neutral' }; output: null };
  /** A modal confirmation rendered by the shell; true when confirmed. */
  confirm: { input: { title: string; message: string; confirm_label?: string; danger?: boolean }; output: boolean };
  /** The shell's member picker; [] when cancelled. */
  'pick-members': { input: { title?: string; multiple?: boolean }; output: PickedMember[] };
  /** Names of members by id (the member directory is the shell's to read, not an app token's); unknown ids are left out. */
  members: { input: { ids: string[] }; output: PickedMember[] };
  /** Joined members to mention as `@` and a name are typed: a word of their name (or their address) starts with `q`; at most `limit` (8, up to 20). */
  'find-members': { input: { q: string; limit?: number }; output: PickedMember[] };
  /** The shell's file picker (search in the Files app); [] when cancelled. */
  'pick-files': { input: { title?: string; multiple?: boolean }; output: SearchHit[] };
  /** A record by its MRN, as search shows it to this member; null when not found or not theirs to see. */
  'resolve-mrn': { input: { mrn: string }; output: SearchHit | null };
  /**
   * The device's position, for an app that needs it (clocking in at a geofenced place): the shell
   * asks the person once per tab and app, then the browser (its own prompt, for the workspace's
   * origin). Fails with a readable message when refused or unavailable.
   */
  position: { input: { purpose: string }; output: DevicePosition };
  /** The person pressed the search shortcut (Ctrl+K, ⌘K, `/`) inside the app: the shell focuses its search. */
  'focus-search': { input: Record<string, never>; output: null };
  /** A fresh token now (after a 401): the shell asks the platform for one. */
  token: { input: Record<string, never>; output: { token: string; expires_at: string; permissions: string[] } };
  /** The session is over: the shell sends the person to sign in, and back here after. */
  'session-expired': { input: Record<string, never>; output: null };
}

export type BridgeRequestType = keyof BridgeRequests;

/** A request on the port. */
export interface BridgeCall<K extends BridgeRequestType = BridgeRequestType> {
  id: number;
  type: K;
  input: BridgeRequests[K]['input'];
}

/** The answer to one request. */
export type BridgeReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** What the shell tells the frame unasked. */
export type BridgePush =
  | { type: 'init'; init: BridgeInit }
  | { type: 'route'; route: string }
  | { type: 'token'; token: string; expires_at: string; permissions: string[] };

/** Paths an app may navigate to inside itself: a path of its own, no scheme, no `//`, no `..`. */
export function isAppPath(path: unknown): path is string {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !/(^|\/)\.\.(\/|$)/.test(path.split(/[?#]/)[0]) && path.length <= 2000 && ![...path].some((char) => char === '\\' || char.charCodeAt(0) < 0x20);
}
