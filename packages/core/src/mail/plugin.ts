import type { CorePlugin } from '../core-inputs.js';
import { createMailer, type Mailer } from './mailer.js';
import { MailOutbox } from './outbox.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    mail: { mailer: Mailer; outbox: MailOutbox };
  }
}

/**
 * Outgoing mail: SMTP (`SMTP_URL`) or files under the data directory, or the `mailer` seam;
 * closed with the server. The apps' mail (`ctx.mail`) goes through the outbox, swept while the
 * server runs.
 */
export const mailPlugin: CorePlugin = {
  name: 'mail',
  dependencies: ['db'],
  register(server, { config, logger, seams }) {
    const mailer = seams.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
    const outbox = new MailOutbox({ sequelize: server.plugins.db.database.sequelize, mailer: () => mailer, logger: logger.child({ concern: 'mail' }), clock: seams.clock });
    server.expose('mailer', mailer);
    server.expose('outbox', outbox);
    server.ext('onPostStart', () => outbox.start());
    server.ext('onPreStop', () => outbox.stop());
  },
};
