/**
 * The embedded provider's pages (sign-in, sign-out, errors) in the interface languages of the web app. The
 * page is rendered on the server before the app's own catalogues exist in the browser, so its
 * words live here. `{name}` is replaced by the user's name.
 */
export const SIGN_IN_LANGUAGES = ['en', 'es', 'fr', 'de'] as const;
export type SignInLanguage = (typeof SIGN_IN_LANGUAGES)[number];

const en = {
  pageTitle: 'Sign in - Planning Suite',
  heading: 'Sign in',
  subtitle: 'Demo identity provider',
  email: 'Email',
  password: 'Password',
  signIn: 'Sign in',
  cancel: 'Cancel',
  demoUsers: 'Demo users',
  demoNote: 'This provider is for demos and tests only.',
  groups: 'Groups:',
  noGroups: 'none',
  useAccount: 'Use account',
  signInAs: 'Sign in as {name}',
  invalidCredentials: 'Invalid email or password.',
  tooManyAttempts: 'Too many failed sign-in attempts. Try again in a few minutes.',
  signOutTitle: 'Sign out - Planning Suite',
  signOutHeading: 'Sign out',
  signOutQuestion: 'Do you want to sign out of Planning Suite?',
  signOutYes: 'Yes, sign me out',
  signOutNo: 'No, stay signed in',
  signedOutTitle: 'Signed out - Planning Suite',
  signedOutHeading: 'Signed out',
  signedOutText: 'You have signed out.',
  returnHome: 'Return to Home',
  errorTitle: 'Sign-in error - Planning Suite',
  errorHeading: 'Sign-in problem',
  errorCode: 'Code:',
  sessionExpired: 'This sign-in has expired. Return home and sign in again.',
};
export type SignInMessages = typeof en;
export type SignInError = 'invalidCredentials' | 'tooManyAttempts';

export const SIGN_IN_MESSAGES: Record<SignInLanguage, SignInMessages> = {
  en,
  es: {
    pageTitle: 'Iniciar sesión - Planning Suite',
    heading: 'Iniciar sesión',
    subtitle: 'Proveedor de identidad de demostración',
    email: 'Correo electrónico',
    password: 'Contraseña',
    signIn: 'Iniciar sesión',
    cancel: 'Cancelar',
    demoUsers: 'Usuarios de demostración',
    demoNote: 'Este proveedor solo sirve para demostraciones y pruebas.',
    groups: 'Grupos:',
    noGroups: 'ninguno',
    useAccount: 'Usar cuenta',
    signInAs: 'Iniciar sesión como {name}',
    invalidCredentials: 'Correo electrónico o contraseña incorrectos.',
    tooManyAttempts: 'Demasiados intentos fallidos. Vuelva a intentarlo dentro de unos minutos.',
    signOutTitle: 'Cerrar sesión - Planning Suite',
    signOutHeading: 'Cerrar sesión',
    signOutQuestion: '¿Desea cerrar la sesión de Planning Suite?',
    signOutYes: 'Sí, cerrar la sesión',
    signOutNo: 'No, mantener la sesión',
    signedOutTitle: 'Sesión cerrada - Planning Suite',
    signedOutHeading: 'Sesión cerrada',
    signedOutText: 'Ha cerrado la sesión.',
    returnHome: 'Volver al inicio',
    errorTitle: 'Error de inicio de sesión - Planning Suite',
    errorHeading: 'Problema al iniciar sesión',
    errorCode: 'Código:',
    sessionExpired: 'Este inicio de sesión ha caducado. Vuelva al inicio e inicie sesión de nuevo.',
  },
  fr: {
    pageTitle: 'Connexion - Planning Suite',
    heading: 'Connexion',
    subtitle: "Fournisseur d'identité de démonstration",
    email: 'E-mail',
    password: 'Mot de passe',
    signIn: 'Se connecter',
    cancel: 'Annuler',
    demoUsers: 'Utilisateurs de démonstration',
    demoNote: 'Ce fournisseur sert uniquement aux démonstrations et aux tests.',
    groups: 'Groupes :',
    noGroups: 'aucun',
    useAccount: 'Utiliser ce compte',
    signInAs: 'Se connecter en tant que {name}',
    invalidCredentials: 'E-mail ou mot de passe incorrect.',
    tooManyAttempts: 'Trop de tentatives de connexion échouées. Réessayez dans quelques minutes.',
    signOutTitle: 'Déconnexion - Planning Suite',
    signOutHeading: 'Déconnexion',
    signOutQuestion: 'Voulez-vous vous déconnecter de Planning Suite ?',
    signOutYes: 'Oui, me déconnecter',
    signOutNo: 'Non, rester connecté',
    signedOutTitle: 'Déconnecté - Planning Suite',
    signedOutHeading: 'Déconnecté',
    signedOutText: 'Vous êtes déconnecté.',
    returnHome: "Retour à l'accueil",
    errorTitle: 'Erreur de connexion - Planning Suite',
    errorHeading: 'Problème de connexion',
    errorCode: 'Code :',
    sessionExpired: 'Cette connexion a expiré. Revenez à l’accueil et connectez-vous à nouveau.',
  },
  de: {
    pageTitle: 'Anmelden - Planning Suite',
    heading: 'Anmelden',
    subtitle: 'Demo-Identitätsanbieter',
    email: 'E-Mail',
    password: 'Passwort',
    signIn: 'Anmelden',
    cancel: 'Abbrechen',
    demoUsers: 'Demo-Benutzer',
    demoNote: 'Dieser Anbieter dient nur für Demos und Tests.',
    groups: 'Gruppen:',
    noGroups: 'keine',
    useAccount: 'Konto verwenden',
    signInAs: 'Als {name} anmelden',
    invalidCredentials: 'E-Mail-Adresse oder Passwort ist falsch.',
    tooManyAttempts: 'Zu viele fehlgeschlagene Anmeldeversuche. Versuchen Sie es in einigen Minuten erneut.',
    signOutTitle: 'Abmelden - Planning Suite',
    signOutHeading: 'Abmelden',
    signOutQuestion: 'Möchten Sie sich von Planning Suite abmelden?',
    signOutYes: 'Ja, abmelden',
    signOutNo: 'Nein, angemeldet bleiben',
    signedOutTitle: 'Abgemeldet - Planning Suite',
    signedOutHeading: 'Abgemeldet',
    signedOutText: 'Sie haben sich abgemeldet.',
    returnHome: 'Zur Startseite',
    errorTitle: 'Anmeldefehler - Planning Suite',
    errorHeading: 'Problem bei der Anmeldung',
    errorCode: 'Code:',
    sessionExpired:
      'Diese Anmeldung ist abgelaufen. Kehren Sie zur Startseite zurück und melden Sie sich erneut an.',
  },
};

function supported(tag: string): SignInLanguage | undefined {
  const primary = tag.trim().toLowerCase().split('-')[0];
  return SIGN_IN_LANGUAGES.find((language) => language === primary);
}

/** Accept-Language's tags, most preferred first (RFC 9110 §12.5.4); q=0 means "not this one". */
function acceptedTags(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), quality: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, quality }) => tag !== '' && quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map(({ tag }) => tag);
}

/**
 * The page's language: the app's `ui_locales` (the user's language setting, space-separated tags)
 * first, then the browser's Accept-Language, else English.
 */
export function signInLanguage(
  uiLocales: string | undefined,
  acceptLanguage: string | undefined,
): SignInLanguage {
  const tags = [...(uiLocales ?? '').split(' '), ...acceptedTags(acceptLanguage ?? '')];
  for (const tag of tags) {
    const language = supported(tag);
    if (language) return language;
  }
  return 'en';
}
