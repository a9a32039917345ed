import { CSRF_FIELD } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { Hidden, Layout, Message } from './layout.js';
import type { PageText } from './render.js';

/** The device page (RFC 8628 §3.3): field `user_code`, prefilled from verification_uri_complete. */
export function DeviceCodePage(props: {
  t: PageText;
  userCode?: string | undefined;
  csrf: string;
  error?: string | undefined;
}) {
  const { t } = props;
  return (
    <Layout lang={t.lang} title={t('device.title')} header={t.custom('device.header')}>
      <h1>{t('device.title')}</h1>
      <p>{t('device.intro')}</p>
      <Message kind="error" text={props.error} />
      <form method="post" action={runtimePaths.device}>
        <Hidden fields={{ [CSRF_FIELD]: props.csrf }} />
        <label for="user_code">{t('device.userCode')}</label>
        <input id="user_code" name="user_code" type="text" autocomplete="off" required value={props.userCode ?? ''} />
        <div class="actions">
          <button type="submit">{t('device.submit')}</button>
        </div>
      </form>
    </Layout>
  );
}

export function DeviceDonePage(props: { t: PageText; approved: boolean }) {
  const { t } = props;
  return (
    <Layout lang={t.lang} title={t('device.title')} header={t.custom('device.header')}>
      <h1>{t('device.title')}</h1>
      <Message kind="info" text={t(props.approved ? 'device.approved' : 'device.denied')} />
    </Layout>
  );
}
