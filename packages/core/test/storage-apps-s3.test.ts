import { storageSuite } from './helpers/storage-suite.js';

// ctx.storage on the S3 driver, against an S3-compatible server (s3rver) started on loopback,
// with the apps in strict mode (their database roles cannot read the platform schema).
storageSuite('s3');
