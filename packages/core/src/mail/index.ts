export { createMailer, type Mailer, type MailerOptions, type MailMessage, type SentMail } from './mailer.js';
export { MailOutbox, queuedMail, MAIL_MAX_ATTACHMENTS, MAIL_MAX_ATTEMPTS, MAIL_MAX_BYTES, MAIL_MAX_RECIPIENTS, type QueuedMail } from './outbox.js';
