import type { BackgroundCheckTexts } from './texts';

export default {
  stepTitles: {
    consent: 'Consentimiento para una verificación de antecedentes',
    check: 'Estamos verificando tus antecedentes',
  },
  consent: {
    intro: 'Verificamos la identidad y los registros que exige el puesto. No se verifica nada sin tu consentimiento.',
    nameLabel: 'Nombre completo',
    nameHint: 'Tal como figura en tu documento de identidad.',
    nameError: 'Escribe tu nombre completo, de 2 a 100 caracteres.',
    agreeLabel: 'Acepto la verificación de antecedentes descrita arriba.',
    agreeError: 'La verificación necesita tu consentimiento: marca la casilla para continuar.',
    submit: 'Dar mi consentimiento',
  },
  check: {
    what: 'Estamos verificando tu identidad y los registros que exige el puesto.',
    howLong: 'Suele tardar de uno a dos días laborables.',
    mayClose: 'Puedes cerrar esta página: la tarea avanza sola cuando termine la verificación y la encontrarás ahí.',
    watching: 'Esta página se actualiza sola mientras siga abierta.',
  },
} satisfies BackgroundCheckTexts;
