export { apiKeyRoutes } from './routes.js';
export { generateSecret, hashSecret, KEY_MARK, PREFIX_LENGTH, secretPrefix } from './secrets.js';
export { ApiKeyService, parseExpiry, type ApiKeyView, type CreateKeyInput, type RotateKeyInput, type ScopeCatalog, type UpdateKeyInput } from './service.js';
