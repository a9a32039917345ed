import type { EmailTemplate, OffboardInput, OffboardResult, User } from '@idsvc/shared';
import { badRequest } from '../http/api-error.js';
import type { Logger } from '../http/logger.js';
import { OFFBOARD_TEMPLATE, RESET_PASSWORD_TEMPLATE } from '../messaging/default-templates.js';
import type { MailServer } from '../messaging/mailer.js';
import type { ActionKind } from '../queries/action-tokens.js';
import type { ActionLinkService } from './action-links.js';
import type { CommunicationService } from './communication.js';
import type { WriteContext } from './write-context.js';

/** Password resets, set-password mails for new users, and offboarding: one-time links, mailed. */
export function selfServiceService(links: ActionLinkService, communication: CommunicationService, logger: Logger) {
  /** Creates a link and mails it; a link whose mail was not sent is removed again. */
  async function mailLink(
    kind: ActionKind,
    user: User,
    mail: { template: EmailTemplate; server: MailServer },
    by: WriteContext,
    note?: Record<string, unknown>,
  ) {
    const link = await links.create(kind, user.id, by, note);
    try {
      await communication.mailUser(user, mail.template, mail.server, link);
    } catch (error) {
      await links.discard(link);
      throw error;
    }
    return link;
  }

  return {
    /**
     * UserSelfService_ResetPassword: mails the user a link to set a new password (template ResetPassword, default
     * server). 404 user or template; 400 when the mail was not sent (no address, no default server, refused).
     */
    async resetPassword(userId: string, by: WriteContext): Promise<void> {
      const user = await communication.mustLoadUser(userId);
      const template = await communication.mustFindTemplate(RESET_PASSWORD_TEMPLATE);
      communication.mustHaveEmail(user);
      await mailLink('reset', user, { template, server: await communication.defaultServer() }, by);
    },

    /**
     * UserSelfService_UserOffboard: a link that, once confirmed, deactivates the user; mailed too with `sendEmail`
     * (template `emailTemplateName`, by default Offboard). 404 user (or the mail's template); 400 when the user is
     * already inactive or the mail was not sent.
     */
    async offboard(userId: string, input: OffboardInput | undefined, by: WriteContext): Promise<OffboardResult> {
      const user = await communication.mustLoadUser(userId);
      if (!user.active) throw badRequest(`user ${user.userName} is inactive already`);
      const note = input?.reason ? { reason: input.reason } : undefined;
      let link: Awaited<ReturnType<typeof mailLink>>;
      if (input?.sendEmail) {
        const template = await communication.mustFindTemplate(input.emailTemplateName ?? OFFBOARD_TEMPLATE);
        communication.mustHaveEmail(user);
        link = await mailLink('offboard', user, { template, server: await communication.defaultServer() }, by, note);
      } else {
        link = await links.create('offboard', user.id, by, note);
      }
      return { userId: user.id, offboardLink: link.url, expiresAt: link.expiresAt.toISOString() };
    },

    /**
     * After users are created with sendPasswordEmailToUser: mails each user that has an e-mail address a link to set
     * a password. The users exist already, so a mail that is not sent is logged, not answered; returns how many
     * were sent.
     */
    async mailPasswordLinks(users: User[], by: WriteContext): Promise<number> {
      const recipients = users.filter((u) => u.email);
      if (recipients.length === 0) return 0;
      let mail: { template: EmailTemplate; server: MailServer };
      try {
        const template = await communication.mustFindTemplate(RESET_PASSWORD_TEMPLATE);
        mail = { template, server: await communication.defaultServer() };
      } catch (error) {
        logger.warn('no set-password mail was sent', { reason: (error as Error).message, users: recipients.length });
        return 0;
      }
      let sent = 0;
      for (const user of recipients) {
        try {
          await mailLink('reset', user, mail, by);
          sent += 1;
        } catch (error) {
          logger.warn('a set-password mail was not sent', { userId: user.id, reason: (error as Error).message });
        }
      }
      return sent;
    },
  };
}

export type SelfServiceService = ReturnType<typeof selfServiceService>;
