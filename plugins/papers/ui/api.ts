import { css, kit, type components } from '@wpk/ui';

export type Paper = components['schemas']['PapersPaper'];
export type PaperWithContent = components['schemas']['PapersPaperWithContent'];
export type Folder = components['schemas']['PapersFolder'];
export type Template = components['schemas']['PapersTemplate'];
export type Department = components['schemas']['PapersDepartment'];
export type Link = components['schemas']['PapersLink'];
export type Shares = components['schemas']['PapersShares'];

/** A request to the Papers API through the kit's client (the app's bridge token). */
export function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown, query?: Record<string, unknown>): Promise<{ data: T }> {
  return kit().client.request<{ data: T }>(method, path, { body, query });
}

/** A file as base64 (the JSON body the API takes). */
const toBase64 = async (file: Blob) => {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (let index = 0; index < bytes.length; index += 0x8000) text += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(text);
};

/**
 * The editor's images for a paper: uploaded as base64 (`POST /papers/{id}/images`), and shown as
 * blob: URLs of the bytes read with the app's token (the frame has no cookie), once per `src`.
 */
export function paperImages(paperId: string): { upload(file: File): Promise<string>; source(src: string): Promise<string> } {
  const shown = new Map<string, Promise<string>>();
  return {
    async upload(file) {
      return (await api<{ src: string }>('POST', `/papers/${paperId}/images`, { data: await toBase64(file) })).data.src;
    },
    source(src) {
      let url = shown.get(src);
      if (!url) {
        url = kit().client.download('GET', src).then((file) => URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: file.contentType })));
        shown.set(src, url);
        url.catch(() => shown.delete(src));
      }
      return url;
    },
  };
}

export const PAPERS_STYLES = css`
  ul.papers { list-style: none; padding: 0; display: grid; gap: var(--wpk-space-2); }
  ul.papers > li { border: 1px solid var(--wpk-color-border); border-radius: 8px; padding: var(--wpk-space-3); display: flex; gap: var(--wpk-space-2); align-items: center; flex-wrap: wrap; }
  ul.papers a { font-weight: 600; }
  .muted { color: var(--wpk-color-text-muted); }
  .row { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin: var(--wpk-space-2) 0; }
  label { display: grid; gap: 4px; min-width: 0; max-width: 100%; }
  input[type='file'] { width: 15rem; max-width: 100%; }
  input, select { font: inherit; padding: 6px 8px; min-height: 36px; border: 1px solid #8a94a6; border-radius: 6px; }
  button { font: inherit; min-height: 36px; padding: 0 12px; border-radius: 6px; border: 1px solid #1d4ed8; background: #1d4ed8; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #1d4ed8; }
  .with-comments { display: grid; grid-template-columns: minmax(0, 1fr) minmax(14rem, 20rem); gap: var(--wpk-space-4); align-items: start; }
  @media (max-width: 800px) { .with-comments { grid-template-columns: minmax(0, 1fr); } }
  .heading { justify-content: space-between; align-items: center; }
  .heading h1 { margin: 0; }
  details.export { position: relative; }
  details.export summary { cursor: pointer; min-height: 36px; display: flex; align-items: center; padding: 0 12px; border: 1px solid #1d4ed8; border-radius: 6px; color: #1d4ed8; }
  dialog { border: 1px solid var(--wpk-color-border); border-radius: 8px; padding: var(--wpk-space-3); width: min(36rem, calc(100vw - 2rem)); max-height: calc(100vh - 2rem); box-sizing: border-box; overflow: auto; }
  dialog::backdrop { background: rgb(0 0 0 / 0.4); }
  dialog h2 { margin-top: 0; }
  dialog fieldset { border: 1px solid var(--wpk-color-border); border-radius: 6px; margin: var(--wpk-space-2) 0; min-width: 0; }
  dialog input:not([type='checkbox']):not([type='radio']), dialog select { width: 100%; box-sizing: border-box; }
  .choice { display: flex; gap: var(--wpk-space-2); align-items: center; }
  .choice input { min-height: auto; }
  .required { color: #b91c1c; }
  .error { color: #b91c1c; }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); justify-content: flex-end; margin-top: var(--wpk-space-3); }
  ul.plain { list-style: none; padding: 0; margin: var(--wpk-space-1) 0; }
  details.export .menu { position: absolute; right: 0; z-index: 1; display: grid; gap: 4px; padding: 6px; background: #fff; border: 1px solid var(--wpk-color-border); border-radius: 6px; white-space: nowrap; }
`;

