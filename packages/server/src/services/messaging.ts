import type { AppContext } from '../context.js';
import { actionLinkService } from './action-links.js';
import { communicationService } from './communication.js';
import { emailConfigurationService } from './email-configuration.js';
import { selfServiceService } from './self-service.js';
import { smsConfigurationService } from './sms-configuration.js';

/** E-mail and SMS configuration, delivery, and the self-service links built on them. */
export function messagingServices(ctx: AppContext) {
  const { db, box } = ctx;
  const emailConfiguration = emailConfigurationService(db, box);
  const smsConfiguration = smsConfigurationService(db, box);
  const communication = communicationService(db, emailConfiguration, smsConfiguration, {
    dataDir: ctx.config.dataDir,
    baseUrl: ctx.baseUrl,
  });
  const actionLinks = actionLinkService(db, ctx.baseUrl);
  return {
    emailConfiguration,
    smsConfiguration,
    communication,
    actionLinks,
    selfService: selfServiceService(actionLinks, communication, ctx.logger),
  };
}
