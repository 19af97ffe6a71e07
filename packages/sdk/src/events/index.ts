export { ATTEMPT_HEADER, APP_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, signBody, verifySignature } from './signature.js';
export { parseDelivery, RetryDeliveryError, verifyDelivery, type DeliveryHeaders, type ParsedDelivery } from './delivery.js';
export { isTransientError } from './transient.js';
export { publishEvents, type IngressEvent, type PublishOptions } from './client.js';
export { EventPayloadError, payloadChecker, withoutNulls, type PayloadChecker } from './payload-check.js';
export { classifyHandlerError, type HandlerErrorKind } from './transient.js';
export type { SchemaProblem } from '../manifest/json-schema.js';
