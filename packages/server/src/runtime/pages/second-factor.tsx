import { CSRF_FIELD } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { Hidden, Layout, Message } from './layout.js';
import type { PageText } from './render.js';

export interface SecondFactorPageProps {
  t: PageText;
  interaction: string;
  csrf: string;
  error?: string | undefined;
}

/** The second-factor page: a field named `otp` (DESIGN 1.6), posted back with the interaction. */
export function SecondFactorPage(props: SecondFactorPageProps) {
  const { t } = props;
  return (
    <Layout lang={t.lang} title={t('otp.title')} header={t.custom('login.header')} footer={t.custom('login.footer')}>
      <h1>{t('otp.title')}</h1>
      <p>{t('otp.intro')}</p>
      <Message kind="error" text={props.error} />
      <form method="post" action={runtimePaths.secondFactor}>
        <Hidden fields={{ interaction: props.interaction, [CSRF_FIELD]: props.csrf }} />
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
    </Layout>
  );
}
