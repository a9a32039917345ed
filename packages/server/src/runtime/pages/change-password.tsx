import { CSRF_FIELD } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { Hidden, Layout, Message } from './layout.js';
import type { PageText } from './render.js';

export interface ChangePasswordPageProps {
  t: PageText;
  interaction: string;
  csrf: string;
  error?: string | undefined;
}

/**
 * The page that asks for a new password when the one just proved has expired or must be reset: fields `password`
 * and `confirmPassword`, posted back with the interaction.
 */
export function ChangePasswordPage(props: ChangePasswordPageProps) {
  const { t } = props;
  return (
    <Layout
      lang={t.lang}
      title={t('changePassword.title')}
      header={t.custom('login.header')}
      footer={t.custom('login.footer')}
    >
      <h1>{t('changePassword.title')}</h1>
      <p>{t('changePassword.intro')}</p>
      <Message kind="error" text={props.error} />
      <form method="post" action={runtimePaths.changePassword}>
        <Hidden fields={{ interaction: props.interaction, [CSRF_FIELD]: props.csrf }} />
        <label for="password">{t('changePassword.password')}</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required />
        <label for="confirmPassword">{t('changePassword.confirm')}</label>
        <input id="confirmPassword" name="confirmPassword" type="password" autocomplete="new-password" required />
        <div class="actions">
          <button type="submit">{t('changePassword.submit')}</button>
        </div>
      </form>
    </Layout>
  );
}
