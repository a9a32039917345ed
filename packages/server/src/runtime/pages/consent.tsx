import { CSRF_FIELD } from '../csrf.js';
import { Hidden, Layout } from './layout.js';
import type { PageText } from './render.js';
import type { TextKey } from './texts.js';

export interface ConsentPageProps {
  t: PageText;
  clientName: string;
  userName: string;
  scopes: string[];
  action: string;
  hidden: Record<string, string | undefined>;
  csrf: string;
  intro?: TextKey;
  /** Text above the buttons (the device code to check). */
  note?: string | undefined;
}

/** The consent page: buttons named `consent` with values `allow` and `deny` (DESIGN 1.6). */
export function ConsentPage(props: ConsentPageProps) {
  const { t } = props;
  return (
    <Layout lang={t.lang} title={t('consent.title')} header={t.custom('consent.header')}>
      <h1>{t('consent.title')}</h1>
      <p>{t(props.intro ?? 'consent.intro', { client: props.clientName })}</p>
      <ScopeList t={t} scopes={props.scopes} />
      {props.note ? <p>{props.note}</p> : null}
      <p>{t('consent.signedInAs', { user: props.userName })}</p>
      <form method="post" action={props.action}>
        <Hidden fields={{ ...props.hidden, [CSRF_FIELD]: props.csrf }} />
        <div class="actions">
          <button type="submit" name="consent" value="allow">
            {t('consent.allow')}
          </button>
          <button type="submit" name="consent" value="deny" class="secondary">
            {t('consent.deny')}
          </button>
        </div>
      </form>
    </Layout>
  );
}

const known = new Set(['openid', 'profile', 'email', 'phone', 'address', 'offline_access']);

export function ScopeList(props: { t: PageText; scopes: string[] }) {
  return (
    <ul class="scopes">
      {props.scopes.map((scope) => (
        <li>{known.has(scope) ? props.t(`scope.${scope}` as TextKey) : scope}</li>
      ))}
    </ul>
  );
}
