export { createMailer, type Mailer, type MailerOptions, type MailMessage, type SentMail } from './mailer.js';
export { mailPlugin } from './plugin.js';
