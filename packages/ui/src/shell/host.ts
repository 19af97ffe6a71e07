import type { WpkConfirmDialog } from '../components/confirm-dialog.js';
import type { WpkToaster } from '../components/toaster.js';
import { BRIDGE_PROTOCOL, isAppPath, type BridgeCall, type BridgeInit, type BridgeRequests, type DevicePosition, type PickedMember, type SearchHit } from '../bridge/protocol.js';
import { shellApi, toSignIn, type ShellContext } from './api.js';
import type { WpkFilePickerDialog, WpkMemberPickerDialog } from './pickers.js';

/** What the shell offers the host (its own elements). */
export interface HostParts {
  frame: HTMLIFrameElement;
  toaster: WpkToaster;
  confirm: WpkConfirmDialog;
  members: WpkMemberPickerDialog;
  files: WpkFilePickerDialog;
  /** The top bar's search (absent on a page without one). */
  search?: { focus(): void };
}

const MRN = /^mrn:([a-z0-9][a-z0-9._-]{0,99}):([a-z0-9_-]{1,100}):([A-Za-z0-9._-]{1,200})$/;

/**
 * The shell's end of the bridge: it answers the frame that it hosts and no one else (the
 * `hello` must come from that frame's window, and the answer goes on the port the frame sent),
 * hands it a token for its app only, renews the token before it expires, keeps the address
 * bar and history in step with the app's path, and does for the app what its token may not:
 * the member directory, the Files app's search, records by MRN, dialogs and toasts.
 */
export class AppHost {
  /** The ports of the frame's current document (one per hello it sent before the shell answered). */
  private readonly ports = new Set<MessagePort>();
  /** Which document of the frame those ports belong to (a reloaded frame says hello as a new one). */
  private document = '';
  private token: { token: string; expires_at: string; permissions: string[] } | null = null;
  private renewal: ReturnType<typeof setTimeout> | undefined;
  private readonly base: string;

  constructor(
    private readonly context: ShellContext & { app: { slug: string; name: string } },
    private readonly parts: HostParts,
  ) {
    this.base = `/app/${context.app.slug}`;
    window.addEventListener('message', (event) => this.hello(event));
    window.addEventListener('popstate', () => this.push({ type: 'route', route: this.route() }));

  }

  /** The app's path as the address bar shows it (`/app/tasks/boards/1?x` → `/boards/1?x`). */
  route(): string {
    const rest = location.pathname.slice(this.base.length) || '/';
    return `${rest.startsWith('/') ? rest : `/${rest}`}${location.search}`;
  }

  private async hello(event: MessageEvent): Promise<void> {
    if (event.source !== this.parts.frame.contentWindow) return;
    const data = event.data as { protocol?: string; type?: string; document?: string } | null;
    if (data?.protocol !== BRIDGE_PROTOCOL || data.type !== 'hello' || !event.ports[0]) return;
    if (data.document !== this.document) {
      for (const port of this.ports) port.close();
      this.ports.clear();
      this.document = String(data.document);
    }
    const port = event.ports[0];
    this.ports.add(port);
    port.postMessage({ type: 'ack' });
    port.onmessage = (message) => void this.answer(port, message.data as BridgeCall);
    const token = await this.renew();
    const resolved = Intl.DateTimeFormat().resolvedOptions();
    const init: BridgeInit = {
      ...token,
      api_version: this.context.apiVersion,
      app: this.context.app,
      member: this.context.member,
      workspace: this.context.workspace,
      locale: navigator.language || resolved.locale,
      time_zone: resolved.timeZone,
      route: this.route(),
    };
    port.postMessage({ type: 'init', init });
  }

  /** A fresh token for the app; renewed again at four fifths of its life, and pushed to the frame. */
  private async renew(): Promise<{ token: string; expires_at: string; permissions: string[] }> {
    const answer = await shellApi<{ data: { token: string; expires_at: string; permissions: string[] } }>(this.context, 'POST', '/app-tokens', { app: this.context.app.slug });
    this.token = { token: answer.data.token, expires_at: answer.data.expires_at, permissions: answer.data.permissions };
    clearTimeout(this.renewal);
    const life = Date.parse(answer.data.expires_at) - Date.now();
    this.renewal = setTimeout(() => {
      this.renew()
        .then((fresh) => this.push({ type: 'token', ...fresh }))
        .catch(() => undefined);
    }, Math.max(5_000, life * 0.8));
    return this.token;
  }

  private push(message: unknown): void {
    for (const port of this.ports) port.postMessage(message);
  }

  private async answer(port: MessagePort, call: BridgeCall): Promise<void> {
    try {
      const value = await this.handle(call);
      port.postMessage({ id: call.id, ok: true, value });
    } catch (error) {
      port.postMessage({ id: call.id, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  }

  private async handle(call: BridgeCall): Promise<unknown> {
    switch (call.type) {
      case 'navigate': {
        const input = call.input as BridgeRequests['navigate']['input'];
        if (!isAppPath(input.path)) throw new Error('navigate: a path of the app (/…) is expected');
        const target = `${this.base}${input.path === '/' ? '/' : input.path}`;
        if (input.replace) history.replaceState(null, '', target);
        else history.pushState(null, '', target);
        return null;
      }
      case 'open': {
        const input = call.input as BridgeRequests['open']['input'];
        if (!isAppPath(input.href)) throw new Error('open: a path of this workspace (/…) is expected');
        location.assign(input.href);
        return null;
      }
      case 'title': {
        const input = call.input as BridgeRequests['title']['input'];
        document.title = `${String(input.title).slice(0, 200)} · ${this.context.app.name}`;
        return null;
      }
      case 'toast': {
        const input = call.input as BridgeRequests['toast']['input'];
        this.parts.toaster.show(String(input.message), input.variant === 'success' || input.variant === 'danger' ? input.variant : 'neutral');
        return null;
      }
      case 'confirm': {
        const input = call.input as BridgeRequests['confirm']['input'];
        return this.parts.confirm.ask({ title: String(input.title).slice(0, 200), message: String(input.message).slice(0, 2000), confirm_label: input.confirm_label, danger: input.danger === true });
      }
      case 'pick-members': {
        const input = call.input as BridgeRequests['pick-members']['input'];
        return this.parts.members.pick({ title: input.title ?? 'Choose members', multiple: input.multiple === true });
      }
      case 'members': {
        const ids = (call.input as BridgeRequests['members']['input']).ids;
        if (!Array.isArray(ids) || ids.length > 500) throw new Error('members: ids must be an array of at most 500 member ids');
        return this.members(ids.map(String));
      }
      case 'find-members': {
        const input = call.input as BridgeRequests['find-members']['input'];
        const limit = Number.isInteger(input.limit) && input.limit! > 0 ? Math.min(input.limit!, 20) : 8;
        return this.findMembers(String(input.q ?? '').slice(0, 100), limit);
      }
      case 'pick-files': {
        const input = call.input as BridgeRequests['pick-files']['input'];
        return this.parts.files.pick({ title: input.title ?? 'Choose files', multiple: input.multiple === true });
      }
      case 'resolve-mrn':
        return this.resolve(String((call.input as BridgeRequests['resolve-mrn']['input']).mrn));
      case 'position':
        return this.position(String((call.input as BridgeRequests['position']['input']).purpose ?? ''));
      case 'focus-search':
        this.parts.search?.focus();
        return null;
      case 'token':
        return this.renew();
      case 'session-expired': {
        // Only believed when the session really is over: the shell asks for itself.
        await shellApi(this.context, 'GET', '/me');
        return null;
      }
      default:
        throw new Error(`Unknown bridge request ${String(call.type).slice(0, 50)}`);
    }
  }

  /**
   * The device's position for the app. The app's frame has no geolocation of its own (its frame
   * does not allow it: any app could follow the person), so the shell asks: once per tab and app,
   * in its own dialog naming the app and its purpose, then the browser asks for the workspace's
   * origin as it always does.
   */
  private async position(purpose: string): Promise<DevicePosition> {
    const key = `wpk.position.${this.context.app.slug}`;
    if (sessionStorage.getItem(key) !== 'shared') {
      const name = this.context.app.name;
      const shared = await this.parts.confirm.ask({ title: `Share your location with ${name}?`, message: `${name} asks where you are: ${purpose.slice(0, 300) || 'no reason given'}. It gets your position only when you do this, for as long as this tab is open.`, confirm_label: 'Share my location' });
      if (!shared) throw new Error('You did not share your location');
      sessionStorage.setItem(key, 'shared');
    }
    if (!('geolocation' in navigator)) throw new Error('This browser cannot tell where you are');
    return new Promise((resolve, reject) => {
      navigator.geolocation.getCurrentPosition(
        (found) => resolve({ latitude: found.coords.latitude, longitude: found.coords.longitude, accuracy_m: Math.ceil(found.coords.accuracy) }),
        (failure) =>
          reject(
            new Error(
              failure.code === failure.PERMISSION_DENIED
                ? 'Location access is blocked for this site: allow it in the browser and try again'
                : failure.code === failure.TIMEOUT
                  ? 'Finding your position took too long: try again'
                  : 'Your position is not available right now',
            ),
          ),
        { enableHighAccuracy: true, timeout: 20_000, maximumAge: 0 },
      );
    });
  }

  /** The directory, read once per page (`GET /members`, every page of it): each member, and whether they joined. */
  private directory: Promise<Map<string, { member: PickedMember; joined: boolean }>> | null = null;

  private async readDirectory(): Promise<Map<string, { member: PickedMember; joined: boolean }>> {
    this.directory ??= (async () => {
      const found = new Map<string, { member: PickedMember; joined: boolean }>();
      for (let page = 1; page <= 50; page++) {
        const answer = await shellApi<{ data: Array<PickedMember & { state?: string }>; pagination: { pages: number } }>(this.context, 'GET', `/members?per_page=100&page=${page}`);
        for (const { id, name, email, state } of answer.data) found.set(id, { member: { id, name, email }, joined: state !== 'invited' });
        if (page >= answer.pagination.pages) break;
      }
      return found;
    })();
    return this.directory.catch((error: unknown) => {
      this.directory = null;
      throw error;
    });
  }

  private async members(ids: string[]): Promise<PickedMember[]> {
    const directory = await this.readDirectory();
    return ids.flatMap((id) => (directory.has(id) ? [directory.get(id)!.member] : []));
  }

  /**
   * Joined members whose name has a word starting with each word of `query`, or whose address
   * starts with it: those whose name starts with it first, then by name.
   */
  private async findMembers(query: string, limit: number): Promise<PickedMember[]> {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const whole = words.join(' ');
    const matches = [...(await this.readDirectory()).values()]
      .filter(({ member, joined }) => {
        if (!joined) return false;
        const names = member.name.toLowerCase().split(/\s+/);
        return words.every((word) => names.some((name) => name.startsWith(word))) || (whole !== '' && member.email.toLowerCase().startsWith(whole));
      })
      .map(({ member }) => member);
    const first = (member: PickedMember) => (member.name.toLowerCase().startsWith(whole) ? 0 : 1);
    return matches.sort((a, b) => first(a) - first(b) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id)).slice(0, limit);
  }

  /** A record by MRN, through search as this member may see it; null when not found or not open to them. */
  private async resolve(mrn: string): Promise<SearchHit | null> {
    const match = MRN.exec(mrn);
    if (!match) throw new Error('resolve-mrn: mrn:{app}:{resource}:{id} is expected');
    try {
      const answer = await shellApi<{ data: SearchHit[] }>(this.context, 'GET', `/search?${new URLSearchParams({ app: match[1], mrn, per_page: '1' })}`);
      return answer.data[0] ?? null;
    } catch {
      return null;
    }
  }
}

export { toSignIn };
