import { defineApp, defineRoute, InvalidError, Joi, NotFoundError, type AppContext } from '@wpk/sdk';

// Two third-party apps with the same routes over ctx.storage: `ext.acme.drive` and
// `ext.acme.other`. What one stores, the other must never reach.

const key = Joi.string().allow('').max(4000).required();

function routes(slug: string) {
  const chain = [`ext.acme.${slug}.files.manage`];
  const read = async (ctx: AppContext, name: string) => {
    const object = await ctx.storage.get(name);
    if (!object) throw new NotFoundError(`No file ${name}`);
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
    const { body: _body, ...description } = object;
    return { ...description, base64: Buffer.concat(chunks).toString('base64') };
  };
  const bytesOf = (payload: { text?: string; base64?: string }) => (payload.base64 !== undefined ? Buffer.from(payload.base64, 'base64') : Buffer.from(payload.text ?? '', 'utf8'));
  return [
    defineRoute({
      method: 'POST',
      path: '/files',
      chain,
      validate: { payload: Joi.object({ key, text: Joi.string().allow(''), base64: Joi.string().allow(''), content_type: Joi.string(), max_bytes: Joi.number().integer(), stream: Joi.boolean() }) },
      handler: async (request, ctx) => {
        const payload = request.payload as { key: string; text?: string; base64?: string; content_type?: string; max_bytes?: number; stream?: boolean };
        const bytes = bytesOf(payload);
        // `stream`: the bytes arrive as a stream of 1 KiB chunks, as a proxied upload would.
        const body = payload.stream ? (async function* () { for (let at = 0; at < bytes.length; at += 1024) yield bytes.subarray(at, at + 1024); })() : bytes;
        const stored = await ctx.storage.put(payload.key, body, { ...(payload.content_type ? { contentType: payload.content_type } : {}), ...(payload.max_bytes !== undefined ? { maxBytes: payload.max_bytes } : {}) });
        return { data: { ...stored, app: slug } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/files',
      chain,
      validate: { query: Joi.object({ key }) },
      handler: async (request, ctx) => ({ data: await read(ctx, String(request.query.key)) }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/files',
      chain,
      validate: { query: Joi.object({ key, fail: Joi.boolean() }) },
      handler: async (request, ctx) => {
        const deleted = await ctx.storage.delete(String(request.query.key));
        if (request.query.fail) throw new InvalidError('refused after deleting');
        return { data: { deleted } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/files/failing',
      chain,
      validate: { payload: Joi.object({ key, text: Joi.string().required() }) },
      handler: async (request, ctx) => {
        const payload = request.payload as { key: string; text: string };
        await ctx.storage.put(payload.key, payload.text, { contentType: 'text/plain' });
        throw new InvalidError('refused after writing');
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/links',
      chain,
      validate: { payload: Joi.object({ key, op: Joi.string().valid('get', 'put').required(), content_type: Joi.string(), max_bytes: Joi.number().integer(), expires_in: Joi.number().integer(), filename: Joi.string() }) },
      handler: async (request, ctx) => {
        const payload = request.payload as { key: string; op: 'get' | 'put'; content_type?: string; max_bytes?: number; expires_in?: number; filename?: string };
        const link =
          payload.op === 'get'
            ? await ctx.storage.signedDownloadUrl(payload.key, { ...(payload.expires_in ? { expiresInSeconds: payload.expires_in } : {}), ...(payload.filename ? { filename: payload.filename } : {}) })
            : await ctx.storage.signedUploadUrl(payload.key, { ...(payload.expires_in ? { expiresInSeconds: payload.expires_in } : {}), ...(payload.content_type ? { contentType: payload.content_type } : {}), ...(payload.max_bytes !== undefined ? { maxBytes: payload.max_bytes } : {}) });
        return { data: { ...link, expires_at: link.expires_at.toISOString() } };
      },
    }),
  ];
}

function storageApp(slug: string) {
  const permission = `ext.acme.${slug}.files.manage`;
  return defineApp(
    {
      slug,
      publisher: 'acme',
      name: `Storage fixture ${slug}`,
      version: '1.0.0',
      description: 'A test fixture over ctx.storage.',
      permissions: [{ key: permission, label: 'Manage files', category: 'Files' }],
      authorization: [
        { method: 'POST', path: '/files', chain: [permission] },
        { method: 'GET', path: '/files', chain: [permission] },
        { method: 'DELETE', path: '/files', chain: [permission] },
        { method: 'POST', path: '/files/failing', chain: [permission] },
        { method: 'POST', path: '/links', chain: [permission] },
      ],
    },
    { routes: routes(slug) },
  );
}

/** `ext.acme.drive`. */
export const driveApp = storageApp('drive');
/** `ext.acme.other`: the same routes, another namespace. */
export const otherApp = storageApp('other');
