import { storageSuite } from './helpers/storage-suite.js';

// ctx.storage on the local-disk driver (the default).
storageSuite('local');
