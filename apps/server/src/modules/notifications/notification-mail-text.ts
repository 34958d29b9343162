import type { NotificationKind, UserSettings } from '@ps/domain';

type Language = UserSettings['language'];
type Values = Record<string, unknown>;
type MailText = {
  subject: (count: number) => string;
  intro: string;
  lines: Record<NotificationKind, (v: Values) => string>;
  footer: string;
};

const s = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/**
 * The digest mail in the reader's language (their saved setting; English without one). Mail is
 * plain text written on the server, so it has its own small catalogue beside the web's.
 */
const MAIL_TEXT: Record<Language, MailText> = {
  english: {
    subject: (n) => `Planning Suite: ${n} ${n === 1 ? 'notification' : 'notifications'}`,
    intro: 'Here is what happened in Planning Suite since the last digest:',
    lines: {
      'forecast-run-succeeded': (v) =>
        `Forecast run ${s(v.runId)} finished: ${s(v.products)} products, ${s(v.records)} records updated.`,
      'forecast-run-failed': (v) => `Forecast run ${s(v.runId)} failed: ${s(v.error)}`,
      'import-finished': (v) =>
        `Import of ${s(v.fileName)} finished: ${s(v.imported)} items imported, ${s(v.failed)} failed.`,
      'plan-cycle-published': (v) => `Plan cycle '${s(v.label)}' was published by ${s(v.by)}.`,
      'override-changed': (v) =>
        v.count === 1
          ? `${s(v.by)} changed ${s(v.field)} of ${s(v.pid)} (week of ${s(v.week)}), which you had overridden.`
          : `${s(v.by)} changed ${s(v.count)} records you had overridden, among them ${s(v.field)} of ${s(v.pid)} (week of ${s(v.week)}).`,
      'exceptions-found': (v) => `${s(v.count)} new items need your attention in the exception queue.`,
      'cycle-finished': (v) =>
        `The planning cycle ${s(v.runId)} finished: ${s(v.products)} products forecast, ${s(v.exceptions)} items in the exception queue.`,
      'cycle-failed': (v) =>
        `The planning cycle ${s(v.runId)} stopped at its step ${s(v.step)}: ${s(v.error)}`,
    },
    footer: 'You get this mail because email notifications are on in your settings.',
  },
  spanish: {
    subject: (n) => `Planning Suite: ${n} ${n === 1 ? 'notificación' : 'notificaciones'}`,
    intro: 'Esto es lo que ha ocurrido en Planning Suite desde el último resumen:',
    lines: {
      'forecast-run-succeeded': (v) =>
        `La ejecución del pronóstico ${s(v.runId)} ha terminado: ${s(v.products)} productos, ${s(v.records)} registros actualizados.`,
      'forecast-run-failed': (v) => `La ejecución del pronóstico ${s(v.runId)} ha fallado: ${s(v.error)}`,
      'import-finished': (v) =>
        `La importación de ${s(v.fileName)} ha terminado: ${s(v.imported)} artículos importados, ${s(v.failed)} con error.`,
      'plan-cycle-published': (v) => `${s(v.by)} ha publicado el ciclo de plan '${s(v.label)}'.`,
      'override-changed': (v) =>
        v.count === 1
          ? `${s(v.by)} ha cambiado ${s(v.field)} de ${s(v.pid)} (semana del ${s(v.week)}), que usted había ajustado.`
          : `${s(v.by)} ha cambiado ${s(v.count)} registros que usted había ajustado, entre ellos ${s(v.field)} de ${s(v.pid)} (semana del ${s(v.week)}).`,
      'exceptions-found': (v) =>
        `${s(v.count)} elementos nuevos requieren su atención en la cola de excepciones.`,
      'cycle-finished': (v) =>
        `El ciclo de planificación ${s(v.runId)} ha terminado: ${s(v.products)} productos pronosticados, ${s(v.exceptions)} elementos en la cola de excepciones.`,
      'cycle-failed': (v) =>
        `El ciclo de planificación ${s(v.runId)} se detuvo en el paso ${s(v.step)}: ${s(v.error)}`,
    },
    footer: 'Recibe este correo porque tiene activadas las notificaciones por correo electrónico.',
  },
  french: {
    subject: (n) => `Planning Suite : ${n} ${n === 1 ? 'notification' : 'notifications'}`,
    intro: 'Voici ce qui s’est passé dans Planning Suite depuis le dernier récapitulatif :',
    lines: {
      'forecast-run-succeeded': (v) =>
        `L’exécution de prévision ${s(v.runId)} est terminée : ${s(v.products)} produits, ${s(v.records)} enregistrements mis à jour.`,
      'forecast-run-failed': (v) => `L’exécution de prévision ${s(v.runId)} a échoué : ${s(v.error)}`,
      'import-finished': (v) =>
        `L’import de ${s(v.fileName)} est terminé : ${s(v.imported)} articles importés, ${s(v.failed)} en échec.`,
      'plan-cycle-published': (v) => `${s(v.by)} a publié le cycle de plan « ${s(v.label)} ».`,
      'override-changed': (v) =>
        v.count === 1
          ? `${s(v.by)} a modifié ${s(v.field)} de ${s(v.pid)} (semaine du ${s(v.week)}), que vous aviez ajusté.`
          : `${s(v.by)} a modifié ${s(v.count)} enregistrements que vous aviez ajustés, dont ${s(v.field)} de ${s(v.pid)} (semaine du ${s(v.week)}).`,
      'exceptions-found': (v) =>
        `${s(v.count)} nouveaux éléments demandent votre attention dans la file d’exceptions.`,
      'cycle-finished': (v) =>
        `Le cycle de planification ${s(v.runId)} est terminé : ${s(v.products)} produits prévus, ${s(v.exceptions)} éléments dans la file d’exceptions.`,
      'cycle-failed': (v) =>
        `Le cycle de planification ${s(v.runId)} s’est arrêté à l’étape ${s(v.step)} : ${s(v.error)}`,
    },
    footer: 'Vous recevez ce message car les notifications par e-mail sont activées dans vos paramètres.',
  },
  german: {
    subject: (n) => `Planning Suite: ${n} ${n === 1 ? 'Benachrichtigung' : 'Benachrichtigungen'}`,
    intro: 'Das ist in Planning Suite seit der letzten Zusammenfassung passiert:',
    lines: {
      'forecast-run-succeeded': (v) =>
        `Prognoselauf ${s(v.runId)} abgeschlossen: ${s(v.products)} Produkte, ${s(v.records)} Datensätze aktualisiert.`,
      'forecast-run-failed': (v) => `Prognoselauf ${s(v.runId)} fehlgeschlagen: ${s(v.error)}`,
      'import-finished': (v) =>
        `Import von ${s(v.fileName)} abgeschlossen: ${s(v.imported)} Artikel importiert, ${s(v.failed)} fehlgeschlagen.`,
      'plan-cycle-published': (v) => `${s(v.by)} hat den Planungszyklus „${s(v.label)}“ veröffentlicht.`,
      'override-changed': (v) =>
        v.count === 1
          ? `${s(v.by)} hat ${s(v.field)} von ${s(v.pid)} (Woche vom ${s(v.week)}) geändert, den Sie übersteuert hatten.`
          : `${s(v.by)} hat ${s(v.count)} Datensätze geändert, die Sie übersteuert hatten, darunter ${s(v.field)} von ${s(v.pid)} (Woche vom ${s(v.week)}).`,
      'exceptions-found': (v) =>
        `${s(v.count)} neue Einträge in der Ausnahmeliste brauchen Ihre Aufmerksamkeit.`,
      'cycle-finished': (v) =>
        `Planungszyklus ${s(v.runId)} abgeschlossen: ${s(v.products)} Produkte prognostiziert, ${s(v.exceptions)} Einträge in der Ausnahmeliste.`,
      'cycle-failed': (v) =>
        `Planungszyklus ${s(v.runId)} beim Schritt ${s(v.step)} angehalten: ${s(v.error)}`,
    },
    footer:
      'Sie erhalten diese E-Mail, weil E-Mail-Benachrichtigungen in Ihren Einstellungen aktiviert sind.',
  },
};

export type DigestEntry = { kind: NotificationKind; content: Values; createdAt: Date };

function isLanguage(value: string | null): value is Language {
  return value !== null && value in MAIL_TEXT;
}

/** One plain-text mail listing every waiting notification, oldest first, with its UTC time. */
export function composeDigest(
  entries: readonly DigestEntry[],
  language: string | null,
): { subject: string; text: string } {
  const text = MAIL_TEXT[isLanguage(language) ? language : 'english'];
  const lines = entries.map(
    (entry) =>
      `- ${entry.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC  ${text.lines[entry.kind](entry.content)}`,
  );
  return {
    subject: text.subject(entries.length),
    text: [text.intro, '', ...lines, '', text.footer, ''].join('\n'),
  };
}
