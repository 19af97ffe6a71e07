/**
 * Where avatar images are kept: the platform's file storage (storage/, namespace `platform`),
 * handed in by the runtime. Keys are `avatars/{member_id}`.
 */
export interface AvatarStorage {
  put(workspaceId: string, key: string, data: Buffer, contentType: string): Promise<void>;
  /** The stored bytes, or null when nothing is stored under `key`. */
  get(workspaceId: string, key: string): Promise<Buffer | null>;
  delete(workspaceId: string, key: string): Promise<void>;
}
