/** One operation: method, path template, its tag (app namespace or account/system), the host it is served on. */
export interface OperationEntry {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  tag: string;
  /** `workspace`: a workspace subdomain; `platform`: the base domain; `any`: both. */
  host: 'workspace' | 'platform' | 'any';
  /** The operation declares `page`/`per_page`. */
  paged?: boolean;
}
