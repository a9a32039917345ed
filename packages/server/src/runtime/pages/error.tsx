import { Layout } from './layout.js';
import type { PageText } from './render.js';
import type { TextKey } from './texts.js';

/** An error that cannot go back to a client: the request's client or redirect address is not trusted. */
export function ErrorPage(props: { t: PageText; error: string; description?: string | undefined }) {
  const { t } = props;
  return (
    <Layout lang={t.lang} title={t('error.title')} header={t.custom('error.header')}>
      <h1>{t('error.title')}</h1>
      <p>{props.description ?? t('error.intro')}</p>
      <p>
        {t('error.code')}: <code>{props.error}</code>
      </p>
    </Layout>
  );
}

/**
 * response_mode form_post: a form that posts the response to the client; a one-line script submits it, and the
 * button does when scripts are off. `intro` says where it goes (default: the application).
 */
export function FormPostPage(props: {
  t: PageText;
  action: string;
  fields: Record<string, string>;
  nonce: string;
  intro?: TextKey;
}) {
  const { t } = props;
  return (
    <Layout lang={t.lang} title={t('formPost.continue')}>
      <form method="post" action={props.action}>
        {Object.entries(props.fields).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <p>{t(props.intro ?? 'formPost.intro')}</p>
        <button type="submit">{t('formPost.continue')}</button>
      </form>
      <script nonce={props.nonce}>document.forms[0].submit();</script>
    </Layout>
  );
}
