export { createMailer, type Mailer, type MailerOptions, type MailMessage, type SentMail } from './mailer.js';
