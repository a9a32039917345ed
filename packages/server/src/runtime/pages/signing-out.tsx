import { Layout } from './layout.js';
import type { PageText } from './render.js';

/**
 * The clients' front-channel logout addresses, each in a hidden iframe (OpenID Connect Front-Channel Logout 1.0 §4):
 * the browser loads them, with the clients' cookies, so that each client ends its own session.
 */
export function LogoutFrames(props: { t: PageText; frames: readonly string[] }) {
  return (
    <>
      {props.frames.map((src) => (
        <iframe src={src} title={props.t('logout.frame')} hidden width="0" height="0" />
      ))}
    </>
  );
}

export interface SigningOutProps {
  t: PageText;
  /** The addresses the iframes load. */
  frames: readonly string[];
  /** Where the logout goes on to: the post-logout address with its state, or the upstream provider's answer. */
  next: string;
  /** Seconds before the page goes on by itself. */
  delay: number;
}

/**
 * The page of a browser logout that ended a session whose clients take front-channel logout: their addresses load in
 * hidden iframes, and after `delay` seconds the page goes on to `next` by a meta refresh (no script), or at once by
 * its Continue link.
 */
export function SigningOutPage(props: SigningOutProps) {
  const { t } = props;
  const refresh = <meta http-equiv="refresh" content={`${props.delay};url=${props.next}`} />;
  return (
    <Layout lang={t.lang} title={t('logout.title')} head={refresh}>
      <h1>{t('logout.title')}</h1>
      <p>{t('logout.signingOut')}</p>
      <LogoutFrames t={t} frames={props.frames} />
      <p class="links">
        <a href={props.next}>{t('logout.continue')}</a>
      </p>
    </Layout>
  );
}
