import type { UploadProblem } from '../api/file-uploads.ts';
import type { Locale } from '../ui/i18n/locale.ts';

/**
 * The file field's own texts (file-field.tsx), in each language. With the field's code, not the shell's: they load
 * only with a step that has a file field. Sizes and lists come formatted in the worker's language.
 */
export interface FileFieldTexts {
  takePhoto: string;
  chooseFile: string;
  takeAnother: string;
  chooseAnother: string;
  /** The progress bar's name. */
  progressLabel: string;
  /** Under the progress bar: sent, total and what is left, as "2.1 MB". */
  progress(sent: string, total: string, left: string): string;
  uploading(name: string): string;
  paused: string;
  resumeNow: string;
  uploaded(name: string): string;
  /** A file uploaded before this page was loaded (a reload, "Back"). */
  saved: string;
  previewAlt(label: string): string;
  /** An image the browser cannot show (HEIC outside Safari): the server's copy, a JPEG, is shown once it is uploaded. */
  previewAfterUpload: string;
  noPreview: string;
  /** After a reload: tus's record of an unfinished upload, which goes on with the same file. */
  interrupted(name: string, percent: string): string;
  /** Under each field's hint, what it takes: `types` as "JPEG, PNG or HEIC", `max` as "10 MB". */
  rules(types: string, max: string): string;
  /** `types`: "JPEG, PNG or HEIC". */
  wrongType(types: string): string;
  tooLarge(size: string, max: string): string;
  problems: Record<Exclude<UploadProblem, 'type' | 'size'>, string>;
  tryAgain: string;
}

export const fileFieldTexts: Record<Locale, FileFieldTexts> = {
  en: {
    takePhoto: 'Take a photo',
    chooseFile: 'Choose a file',
    takeAnother: 'Take another photo',
    chooseAnother: 'Choose another file',
    progressLabel: 'Upload progress',
    progress: (sent, total, left) => `${sent} of ${total} sent, ${left} left.`,
    uploading: (name) => `Uploading ${name}…`,
    paused: 'No connection: the upload is paused. It goes on by itself when the connection is back.',
    resumeNow: 'Try again now',
    uploaded: (name) => `${name} is uploaded.`,
    saved: 'Uploaded.',
    previewAlt: (label) => `Your file: ${label}`,
    previewAfterUpload: 'This photo cannot be shown on this device before it is uploaded; it shows here once it is.',
    noPreview: 'This file cannot be shown here, but it is uploaded.',
    interrupted: (name, percent) =>
      `The upload of ${name} stopped at ${percent} when the page closed. Choose the same file again: it goes on from there.`,
    rules: (types, max) => `${types}, at most ${max}.`,
    wrongType: (types) => `This file is not one we accept. Choose a ${types} file.`,
    tooLarge: (size, max) => `This file is ${size}, larger than the ${max} we accept. Choose a smaller one.`,
    problems: {
      quota: 'This task takes no more files: as many as it accepts were already sent. Start the task over to send new ones.',
      closed: 'This task has ended, so no more files can be added. Reload the page.',
      session: 'Your session ended. Reload the page to continue where you left off.',
      failed: 'The file could not be uploaded. Try again.',
    },
    tryAgain: 'Try again',
  },
  es: {
    takePhoto: 'Hacer una foto',
    chooseFile: 'Elegir un archivo',
    takeAnother: 'Hacer otra foto',
    chooseAnother: 'Elegir otro archivo',
    progressLabel: 'Progreso de la subida',
    progress: (sent, total, left) => `${sent} de ${total} enviados; faltan ${left}.`,
    uploading: (name) => `Subiendo ${name}…`,
    paused: 'Sin conexión: la subida está en pausa. Seguirá sola cuando vuelva la conexión.',
    resumeNow: 'Reintentar ahora',
    uploaded: (name) => `${name} está subido.`,
    saved: 'Subido.',
    previewAlt: (label) => `Tu archivo: ${label}`,
    previewAfterUpload: 'Esta foto no se puede mostrar en este dispositivo antes de subirla; aparecerá aquí cuando esté subida.',
    noPreview: 'Este archivo no se puede mostrar aquí, pero está subido.',
    interrupted: (name, percent) =>
      `La subida de ${name} se detuvo en el ${percent} al cerrarse la página. Elige de nuevo el mismo archivo: seguirá desde ahí.`,
    rules: (types, max) => `${types}, de ${max} como máximo.`,
    wrongType: (types) => `No aceptamos este archivo. Elige un archivo ${types}.`,
    tooLarge: (size, max) => `Este archivo ocupa ${size}, más de los ${max} que aceptamos. Elige uno más pequeño.`,
    problems: {
      quota: 'Esta tarea no admite más archivos: ya se enviaron todos los que acepta. Empieza la tarea de nuevo para enviar otros.',
      closed: 'Esta tarea ha terminado, así que no se pueden añadir más archivos. Recarga la página.',
      session: 'Tu sesión ha terminado. Recarga la página para seguir donde lo dejaste.',
      failed: 'No se ha podido subir el archivo. Vuelve a intentarlo.',
    },
    tryAgain: 'Volver a intentar',
  },
};
