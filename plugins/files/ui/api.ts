import { formatBytes, formatDate, isApiError, kit, type UploadTarget, type components } from '@wpk/ui';

/** Where a file's bytes go (`<wpk-upload>`'s `prepare`): `POST /uploads` (a new file, or with `file_id` a new version), then its upload link. */
export async function uploadTarget(body: { size_bytes: number; name?: string; folder_id?: string; file_id?: string }): Promise<UploadTarget & Record<string, unknown>> {
  const upload = (await kit().client.files.postUploads({ body: body as never })).data as { id: string; upload_url: string; method?: 'PUT' };
  return { url: upload.upload_url, method: upload.method ?? 'PUT', upload_id: upload.id };
}

/** Once the bytes are in (`<wpk-upload>`'s `finish`): `POST /uploads/{id}/completion`. */
export async function completeUpload(prepared: Record<string, unknown>): Promise<void> {
  await kit().client.files.postUploadsByUploadIdCompletion({ params: { upload_id: String(prepared.upload_id) } });
}

/** A file or a folder. */
export type Item = components['schemas']['FilesItem'];
/** A member a file or folder is shared with, and their role. */
export type Share = components['schemas']['FilesShare'];
/** One version of a file. */
export type Version = components['schemas']['FilesVersion'];
/** The workspace's storage overview (admins). */
export type Stats = components['schemas']['FilesStats'];
/** What an offboarding transfer moved. */
export type Transfer = components['schemas']['FilesTransfer'];

/** An item's path in the app (the search's result URL too). */
export const itemPath = (item: Pick<Item, 'id'>) => `/files/${item.id}`;

export const bytes = (count: number) => formatBytes(count, kit().locale);
export const changed = (iso: string) => formatDate(iso, { locale: kit().locale, timeZone: kit().timeZone, style: 'datetime' });

/** Every item of a folder (null: the root), folders first, then files, by name. */
export async function folderItems(folderId: string | null): Promise<Item[]> {
  const items: Item[] = [];
  for await (const item of kit().client.paginate('getFiles', { query: { per_page: 100, ...(folderId ? { folder_id: folderId } : {}) } })) items.push(item as Item);
  return items;
}

/** The folders from the root down to `item` (its ancestors this member may read, then itself), read one by one (at most 50 levels). */
export async function trail(item: Item): Promise<Item[]> {
  const chain = [item];
  let parent = item.parent_id;
  while (parent && chain.length < 50) {
    // A file shared on its own: the folders above it are the owner's, not this member's to read.
    const folder = (await kit()
      .client.files.getFilesByFileId({ params: { file_id: parent } })
      .then((answer) => answer.data as Item)
      .catch((error: unknown) => {
        if (isApiError(error) && (error.status === 403 || error.status === 404)) return null;
        throw error;
      }));
    if (!folder) break;
    chain.unshift(folder);
    parent = folder.parent_id;
  }
  return chain;
}
