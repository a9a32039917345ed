import { CSRF_FIELD } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { Hidden, Layout, Message } from './layout.js';
import type { PageText } from './render.js';
import { LogoutFrames } from './signing-out.js';

/** Asks before signing out when the request does not prove it comes from the signed-in person's client. */
export function LogoutConfirmPage(props: { t: PageText; csrf: string; hidden: Record<string, string | undefined> }) {
  const { t } = props;
  return (
    <Layout lang={t.lang} title={t('logout.title')}>
      <h1>{t('logout.title')}</h1>
      <p>{t('logout.confirm')}</p>
      <form method="post" action={runtimePaths.endSession}>
        <Hidden fields={{ ...props.hidden, [CSRF_FIELD]: props.csrf }} />
        <div class="actions">
          <button type="submit" name="logout" value="yes">
            {t('logout.submit')}
          </button>
        </div>
      </form>
    </Layout>
  );
}

/**
 * The signed-out page; `upstreamUnconfirmed`: the upstream provider's sign-out could not be confirmed; `frames`: the
 * clients' front-channel logout addresses, loaded in hidden iframes.
 */
export function LoggedOutPage(props: {
  t: PageText;
  upstreamUnconfirmed?: boolean | undefined;
  frames?: readonly string[] | undefined;
}) {
  const { t } = props;
  return (
    <Layout lang={t.lang} title={t('logout.title')}>
      <h1>{t('logout.title')}</h1>
      {props.t.custom('logout.message') ? (
        <div class="custom" dangerouslySetInnerHTML={{ __html: props.t.custom('logout.message') ?? '' }} />
      ) : (
        <p>{t('logout.done')}</p>
      )}
      {props.upstreamUnconfirmed ? <Message kind="error" text={t('logout.upstreamUnconfirmed')} /> : null}
      {props.frames?.length ? <LogoutFrames t={t} frames={props.frames} /> : null}
    </Layout>
  );
}
