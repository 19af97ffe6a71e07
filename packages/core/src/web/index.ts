export { installWeb, type WebDependencies } from './install.js';
export { callApi, type ApiAnswer } from './api.js';
export { safeNext } from './forms.js';
