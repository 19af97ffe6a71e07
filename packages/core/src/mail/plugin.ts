import type { CorePlugin } from '../core-inputs.js';
import { createMailer, type Mailer } from './mailer.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    mail: { mailer: Mailer };
  }
}

/** Outgoing mail: SMTP (`SMTP_URL`) or files under the data directory, or the `mailer` seam; closed with the server. */
export const mailPlugin: CorePlugin = {
  name: 'mail',
  dependencies: [],
  register(server, { config, logger, seams }) {
    const mailer = seams.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
    server.expose('mailer', mailer);
  },
};
