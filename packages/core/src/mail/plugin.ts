import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
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
export const mailPlugin = defineCorePlugin({
  name: 'mail',
  deps: { config: inputs.config, logger: inputs.logger, seams: inputs.seams, db: plugins.db },
  register(server, { config, logger, seams, db }) {
    const mailer = seams.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
    const outbox = new MailOutbox({ sequelize: db.database.sequelize, mailer: () => mailer, logger: logger.child({ concern: 'mail' }), clock: seams.clock });
    server.ext('onPostStart', () => outbox.start());
    server.ext('onPreStop', () => outbox.stop());
    return { mailer, outbox };
  },
});
