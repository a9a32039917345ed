import { CSRF_FIELD } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { Hidden, Layout, Message } from './layout.js';
import type { PageText } from './render.js';

export interface LoginPageProps {
  t: PageText;
  clientName: string;
  interaction: string;
  csrf: string;
  username?: string | undefined;
  error?: string | undefined;
  /** The forgot-password address of the username-and-password connection in use; absent: no link. */
  forgotPasswordUrl?: string | undefined;
  /** No username-and-password connection: only other connections are offered. */
  passwordAllowed: boolean;
  /** Other ways to sign in (upstream providers), each an address that starts it. */
  others: { name: string; href: string }[];
}

/** The hosted login page: fields `username` and `password` (DESIGN 1.6), posted back with the interaction. */
export function LoginPage(props: LoginPageProps) {
  const { t } = props;
  return (
    <Layout
      lang={t.lang}
      title={t.custom('login.title') ?? t('login.title')}
      header={t.custom('login.header')}
      footer={t.custom('login.footer')}
    >
      <h1>{t('login.title')}</h1>
      <p>{t('login.intro', { client: props.clientName })}</p>
      <Message kind="error" text={props.error} />
      {props.passwordAllowed ? (
        <form method="post" action={runtimePaths.login}>
          <Hidden fields={{ interaction: props.interaction, [CSRF_FIELD]: props.csrf }} />
          <label for="username">{t('login.username')}</label>
          <input
            id="username"
            name="username"
            type="text"
            autocomplete="username"
            required
            value={props.username ?? ''}
          />
          <label for="password">{t('login.password')}</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
          <div class="actions">
            <button type="submit">{t('login.submit')}</button>
          </div>
        </form>
      ) : (
        <Message kind="info" text={t('login.noPasswordConnection')} />
      )}
      {props.forgotPasswordUrl ? (
        <p class="links">
          <a href={props.forgotPasswordUrl}>{t('login.forgot')}</a>
        </p>
      ) : null}
      {props.others.length > 0 ? (
        <div class="links">
          <p>{t('login.other')}</p>
          <ul>
            {props.others.map((o) => (
              <li>
                <a href={o.href}>{o.name}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Layout>
  );
}
