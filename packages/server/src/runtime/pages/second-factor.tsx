import { CSRF_FIELD } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { Hidden, Layout, Message } from './layout.js';
import type { PageText } from './render.js';

export interface SecondFactorPageProps {
  t: PageText;
  interaction: string;
  csrf: string;
  error?: string | undefined;
  /** A note that is not an error (a new code was sent). */
  notice?: string | undefined;
  /** Where a code was sent (SMS or e-mail, the address masked); absent for an authenticator app. */
  delivery?: { channel: 'sms' | 'email'; to: string } | undefined;
}

/**
 * The second-factor page: a field named `otp` (DESIGN 1.6), posted back with the interaction. For a code sent by
 * SMS or e-mail it says where to, and has a second form (the same interaction and CSRF token) to send a new code.
 */
export function SecondFactorPage(props: SecondFactorPageProps) {
  const { t, delivery } = props;
  const hidden = { interaction: props.interaction, [CSRF_FIELD]: props.csrf };
  const intro = delivery
    ? t(delivery.channel === 'sms' ? 'otp.sentSms' : 'otp.sentEmail', { to: delivery.to })
    : t('otp.intro');
  return (
    <Layout lang={t.lang} title={t('otp.title')} header={t.custom('login.header')} footer={t.custom('login.footer')}>
      <h1>{t('otp.title')}</h1>
      <p>{intro}</p>
      <Message kind="info" text={props.notice} />
      <Message kind="error" text={props.error} />
      <form method="post" action={runtimePaths.secondFactor}>
        <Hidden fields={hidden} />
        <label for="otp">{t('otp.code')}</label>
        <input
          id="otp"
          name="otp"
          type="text"
          inputmode="numeric"
          autocomplete="one-time-code"
          pattern="[0-9]*"
          maxlength={10}
          required
        />
        <div class="actions">
          <button type="submit">{t('otp.submit')}</button>
        </div>
      </form>
      {delivery ? (
        <form method="post" action={runtimePaths.secondFactor}>
          <Hidden fields={hidden} />
          <button type="submit" class="secondary" name="resend" value="code">
            {t('otp.resend')}
          </button>
        </form>
      ) : null}
    </Layout>
  );
}
