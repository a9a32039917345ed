import { CSRF_FIELD } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { Hidden, Layout, Message } from './layout.js';
import type { PageText } from './render.js';

/** The spec's forgot-password page: one field, `username` (a user name or an e-mail address). */
export function ForgotPasswordPage(props: { t: PageText; connectionId: string; csrf: string; sent: boolean }) {
  const { t } = props;
  return (
    <Layout lang={t.lang} title={t('forgot.title')} header={t.custom('reset.header')}>
      <h1>{t('forgot.title')}</h1>
      {props.sent ? (
        <Message kind="info" text={t('forgot.sent')} />
      ) : (
        <form
          method="post"
          action={`${runtimePaths.forgotPassword}?connectionId=${encodeURIComponent(props.connectionId)}`}
        >
          <Hidden fields={{ connectionId: props.connectionId, [CSRF_FIELD]: props.csrf }} />
          <p>{t('forgot.intro')}</p>
          <label for="username">{t('forgot.username')}</label>
          <input id="username" name="username" type="text" autocomplete="username" required />
          <div class="actions">
            <button type="submit">{t('forgot.submit')}</button>
          </div>
        </form>
      )}
    </Layout>
  );
}
