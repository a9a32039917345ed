/** The pages' texts in the two languages the service speaks (spec: nl and en). `{name}` marks a value put in. */
const en = {
  'page.title': 'Sign in',
  'login.title': 'Sign in',
  'login.intro': 'Sign in to continue to {client}.',
  'login.username': 'User name or e-mail address',
  'login.password': 'Password',
  'login.submit': 'Sign in',
  'login.forgot': 'Forgot your password?',
  'login.other': 'Or sign in with',
  'login.failed': 'The user name or password is incorrect.',
  'login.locked': 'This account is locked. Ask an administrator to unlock it.',
  'login.noPasswordConnection': 'Signing in with a user name and password is not possible here.',
  'consent.title': 'Allow access',
  'consent.intro': '{client} asks for access to:',
  'consent.allow': 'Allow',
  'consent.deny': 'Deny',
  'consent.signedInAs': 'Signed in as {user}.',
  'scope.openid': 'Your identity',
  'scope.profile': 'Your profile (name and other details)',
  'scope.email': 'Your e-mail address',
  'scope.phone': 'Your phone number',
  'scope.address': 'Your address',
  'scope.offline_access': 'Access while you are away',
  'device.title': 'Connect a device',
  'device.intro': 'Enter the code the device shows.',
  'device.userCode': 'Code',
  'device.submit': 'Continue',
  'device.confirm': '{client} asks for access to:',
  'device.checkCode': 'Check that the device shows the code {code}.',
  'device.unknownCode': 'This code is unknown or has expired.',
  'device.approved': 'The device is connected. You can close this page.',
  'device.denied': 'Access was denied. You can close this page.',
  'logout.title': 'Sign out',
  'logout.confirm': 'Do you want to sign out?',
  'logout.submit': 'Sign out',
  'logout.done': 'You are signed out.',
  'logout.upstreamUnconfirmed':
    'Signing out at the identity provider you signed in with could not be confirmed: you may still be signed in there.',
  'logout.continue': 'Continue',
  'logout.signingOut': 'Signing you out of the applications you used. One moment…',
  'logout.frame': 'Signing out of an application',
  'error.title': 'Something went wrong',
  'error.intro': 'The request cannot be completed.',
  'error.code': 'Error',
  'error.csrf': 'The form has expired or was not sent from this page. Go back and try again.',
  'forgot.title': 'Forgot your password?',
  'forgot.intro': 'Enter your user name or e-mail address. We will send you a link to choose a new password.',
  'forgot.username': 'User name or e-mail address',
  'forgot.submit': 'Send the link',
  'forgot.sent': 'If an account with that name exists, an e-mail with a link to choose a new password is on its way.',
  'forgot.back': 'Back to sign in',
  'otp.title': 'Verification code',
  'otp.intro': 'Enter the code your authenticator app shows.',
  'otp.code': 'Code',
  'otp.submit': 'Verify',
  'otp.failed': 'The code is incorrect.',
  'otp.sentSms': 'We sent a code by text message to {to}. Enter it to continue.',
  'otp.sentEmail': 'We sent a code by e-mail to {to}. Enter it to continue.',
  'otp.recentlySent': 'A code was sent to you moments ago. Enter that code, or ask for a new one in a little while.',
  'otp.resend': 'Send a new code',
  'otp.resent': 'A new code is on its way. The previous code no longer works.',
  'otp.resendWait': 'A new code can be sent {seconds} seconds after the previous one. Try again in a moment.',
  'otp.expired': 'The code has expired. Ask for a new code.',
  'otp.exhausted': 'The code was entered wrongly too often and no longer works. Ask for a new code.',
  'otp.noCode': 'There is no valid code to check. Ask for a new code.',
  'otp.noPhoneNumber':
    'Signing in needs a code by text message, but your account has no mobile phone number for it. Ask an administrator to add one.',
  'otp.noEmail':
    'Signing in needs a code by e-mail, but your account has no e-mail address. Ask an administrator to add one.',
  'otp.notSent': 'The code could not be sent. Try again later, or ask an administrator for help.',
  'otp.mailSubject': 'Your verification code',
  'otp.mailBody':
    'Your verification code is {code}. It can be used once, within {minutes} min.\n\nIf you did not try to sign in, change your password.\n',
  'changePassword.title': 'Choose a new password',
  'changePassword.intro': 'Your password has expired or must be changed. Choose a new password to continue.',
  'changePassword.password': 'New password',
  'changePassword.confirm': 'Confirm the new password',
  'changePassword.submit': 'Change password',
  'changePassword.mismatch': 'The two passwords are not the same.',
  'changePassword.policy': 'The new password does not meet the requirements: {reasons}',
  'formPost.continue': 'Continue',
  'formPost.intro': 'Press Continue to go on to the application.',
  'formPost.introProvider': 'Press Continue to go on to the identity provider.',
} as const;

export type TextKey = keyof typeof en;

const nl: Record<TextKey, string> = {
  'page.title': 'Aanmelden',
  'login.title': 'Aanmelden',
  'login.intro': 'Meld u aan om verder te gaan naar {client}.',
  'login.username': 'Gebruikersnaam of e-mailadres',
  'login.password': 'Wachtwoord',
  'login.submit': 'Aanmelden',
  'login.forgot': 'Wachtwoord vergeten?',
  'login.other': 'Of meld u aan met',
  'login.failed': 'De gebruikersnaam of het wachtwoord is onjuist.',
  'login.locked': 'Dit account is geblokkeerd. Vraag een beheerder het te deblokkeren.',
  'login.noPasswordConnection': 'Aanmelden met gebruikersnaam en wachtwoord is hier niet mogelijk.',
  'consent.title': 'Toegang toestaan',
  'consent.intro': '{client} vraagt toegang tot:',
  'consent.allow': 'Toestaan',
  'consent.deny': 'Weigeren',
  'consent.signedInAs': 'Aangemeld als {user}.',
  'scope.openid': 'Uw identiteit',
  'scope.profile': 'Uw profiel (naam en andere gegevens)',
  'scope.email': 'Uw e-mailadres',
  'scope.phone': 'Uw telefoonnummer',
  'scope.address': 'Uw adres',
  'scope.offline_access': 'Toegang terwijl u afwezig bent',
  'device.title': 'Apparaat koppelen',
  'device.intro': 'Voer de code in die het apparaat toont.',
  'device.userCode': 'Code',
  'device.submit': 'Verder',
  'device.confirm': '{client} vraagt toegang tot:',
  'device.checkCode': 'Controleer dat het apparaat de code {code} toont.',
  'device.unknownCode': 'Deze code is onbekend of verlopen.',
  'device.approved': 'Het apparaat is gekoppeld. U kunt deze pagina sluiten.',
  'device.denied': 'De toegang is geweigerd. U kunt deze pagina sluiten.',
  'logout.title': 'Afmelden',
  'logout.confirm': 'Wilt u zich afmelden?',
  'logout.submit': 'Afmelden',
  'logout.done': 'U bent afgemeld.',
  'logout.upstreamUnconfirmed':
    'Het afmelden bij de identiteitsprovider waarmee u zich aanmeldde kon niet worden bevestigd: mogelijk bent u daar nog aangemeld.',
  'logout.continue': 'Verder',
  'logout.signingOut': 'U wordt afgemeld bij de toepassingen die u gebruikte. Een ogenblik…',
  'logout.frame': 'Afmelden bij een toepassing',
  'error.title': 'Er ging iets mis',
  'error.intro': 'Het verzoek kan niet worden afgerond.',
  'error.code': 'Fout',
  'error.csrf': 'Het formulier is verlopen of niet vanaf deze pagina verstuurd. Ga terug en probeer het opnieuw.',
  'forgot.title': 'Wachtwoord vergeten?',
  'forgot.intro': 'Voer uw gebruikersnaam of e-mailadres in. U ontvangt een link om een nieuw wachtwoord te kiezen.',
  'forgot.username': 'Gebruikersnaam of e-mailadres',
  'forgot.submit': 'Verstuur de link',
  'forgot.sent':
    'Als er een account met die naam bestaat, is er een e-mail met een link voor een nieuw wachtwoord verstuurd.',
  'forgot.back': 'Terug naar aanmelden',
  'otp.title': 'Verificatiecode',
  'otp.intro': 'Voer de code in die uw authenticator-app toont.',
  'otp.code': 'Code',
  'otp.submit': 'Controleren',
  'otp.failed': 'De code is onjuist.',
  'otp.sentSms': 'We hebben een code per sms gestuurd naar {to}. Voer die in om verder te gaan.',
  'otp.sentEmail': 'We hebben een code per e-mail gestuurd naar {to}. Voer die in om verder te gaan.',
  'otp.recentlySent': 'Er is zojuist een code naar u gestuurd. Voer die code in, of vraag over een poosje een nieuwe.',
  'otp.resend': 'Stuur een nieuwe code',
  'otp.resent': 'Er is een nieuwe code onderweg. De vorige code werkt niet meer.',
  'otp.resendWait': 'Een nieuwe code kan {seconds} seconden na de vorige worden gestuurd. Probeer het zo opnieuw.',
  'otp.expired': 'De code is verlopen. Vraag een nieuwe code aan.',
  'otp.exhausted': 'De code is te vaak verkeerd ingevoerd en werkt niet meer. Vraag een nieuwe code aan.',
  'otp.noCode': 'Er is geen geldige code om te controleren. Vraag een nieuwe code aan.',
  'otp.noPhoneNumber':
    'Voor het aanmelden is een code per sms nodig, maar bij uw account staat geen mobiel nummer. Vraag een beheerder er een toe te voegen.',
  'otp.noEmail':
    'Voor het aanmelden is een code per e-mail nodig, maar bij uw account staat geen e-mailadres. Vraag een beheerder er een toe te voegen.',
  'otp.notSent': 'De code kon niet worden verstuurd. Probeer het later opnieuw, of vraag een beheerder om hulp.',
  'otp.mailSubject': 'Uw verificatiecode',
  'otp.mailBody':
    'Uw verificatiecode is {code}. De code kan één keer worden gebruikt, binnen {minutes} min.\n\nHeeft u niet geprobeerd u aan te melden? Wijzig dan uw wachtwoord.\n',
  'changePassword.title': 'Kies een nieuw wachtwoord',
  'changePassword.intro':
    'Uw wachtwoord is verlopen of moet worden gewijzigd. Kies een nieuw wachtwoord om verder te gaan.',
  'changePassword.password': 'Nieuw wachtwoord',
  'changePassword.confirm': 'Bevestig het nieuwe wachtwoord',
  'changePassword.submit': 'Wachtwoord wijzigen',
  'changePassword.mismatch': 'De twee wachtwoorden zijn niet gelijk.',
  'changePassword.policy': 'Het nieuwe wachtwoord voldoet niet aan de eisen: {reasons}',
  'formPost.continue': 'Verder',
  'formPost.intro': 'Druk op Verder om naar de toepassing te gaan.',
  'formPost.introProvider': 'Druk op Verder om naar de identiteitsprovider te gaan.',
};

export const languages = ['en', 'nl'] as const;
export type Language = (typeof languages)[number];

const byLanguage: Record<Language, Record<TextKey, string>> = { en, nl };

/** A text in the language, with `{name}` replaced by the values given (the page escapes the result). */
export function text(language: Language, key: TextKey, values: Record<string, string> = {}): string {
  return byLanguage[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name] : whole,
  );
}

export function isLanguage(value: string): value is Language {
  return (languages as readonly string[]).includes(value);
}

/**
 * The page language: the first supported tag of `ui_locales` (space-separated, OpenID Connect Core §3.1.2.1), else
 * the best supported one of Accept-Language by q-value, else `fallback`.
 */
export function chooseLanguage(
  uiLocales: string | undefined,
  acceptLanguage: string | undefined,
  fallback: Language,
): Language {
  for (const tag of (uiLocales ?? '').split(' ')) {
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](\.\d{0,3})?)\s*$/.exec(p)).find((m) => m);
      return { primary: tag.trim().toLowerCase().split('-')[0], q: q ? Number(q[1]) : 1, index };
    })
    .filter((entry) => entry.q > 0 && isLanguage(entry.primary))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.length > 0 ? (ranked[0].primary as Language) : fallback;
}
