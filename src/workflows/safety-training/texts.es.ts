import type { SafetyTrainingTexts } from './texts';

export default {
  stepTitles: {
    welcome: 'Formación en seguridad laboral',
    policy: 'Lee la política de seguridad',
    quiz: 'Cuestionario de seguridad',
    signature: 'Firma el registro de formación',
  },
  welcome: {
    intro: 'Antes de tu primer turno, esta breve formación explica cómo nos cuidamos unos a otros en el trabajo.',
    estimate: (minutes) => `Dura unos ${minutes} minutos. Tu progreso se guarda después de cada paso, así que puedes parar y volver.`,
    stepCount: (count) => `La formación tiene ${count} pasos:`,
    outline: {
      welcome: 'Leer esta introducción',
      policy: 'Leer la política de seguridad',
      quiz: 'Responder cinco preguntas',
      signature: 'Firmar con tu nombre',
    },
    begin: 'Empezar la formación',
  },
  policy: {
    version: (version) => `Política ${version}`,
    sections: [
      {
        title: 'Salidas de emergencia',
        body: 'Mantén libres en todo momento las salidas de emergencia y los caminos hacia ellas. Nunca bloquees ni cierres con llave una puerta cortafuegos.',
      },
      {
        title: 'Derrames y peligros',
        body: 'Primero señaliza el derrame o peligro para que nadie resbale y después avisa a tu supervisor.',
      },
      { title: 'Equipo de protección', body: 'Revisa tu equipo de protección antes de cada uso. Sustituye lo que esté dañado.' },
      { title: 'Lesiones', body: 'Comunica a tu supervisor cualquier lesión, por pequeña que sea, el mismo día.' },
      {
        title: 'Levantar cargas',
        body: 'Levanta con las rodillas flexionadas y la espalda recta, con la carga cerca del cuerpo. Pide ayuda con cargas pesadas.',
      },
    ],
    acknowledge: 'He leído y entendido la política de seguridad.',
    mustAcknowledge: 'Marca la casilla para confirmar que has leído la política.',
    continue: 'Continuar al cuestionario',
  },
  quiz: {
    intro: (passMark, total, maxAttempts) =>
      `Responde las ${total} preguntas. Necesitas ${passMark} respuestas correctas para aprobar y tienes ${maxAttempts} intentos.`,
    questions: {
      exits: {
        text: '¿Cuándo deben estar libres las salidas de emergencia?',
        options: { a: 'Solo durante los simulacros', b: 'En todo momento', c: 'Al final de cada turno' },
      },
      spill: {
        text: 'Ves un derrame en el suelo. ¿Qué haces primero?',
        options: { a: 'Señalizarlo para que nadie resbale', b: 'Terminar tu tarea actual', c: 'Esperar al equipo de limpieza' },
      },
      ppe: {
        text: '¿Cuándo debes revisar tu equipo de protección?',
        options: { a: 'Una vez al mes', b: 'Solo cuando parece dañado', c: 'Antes de cada uso' },
      },
      injury: {
        text: '¿Qué lesiones hay que comunicar?',
        options: { a: 'Todas, el mismo día', b: 'Solo las que necesitan médico', c: 'Solo las que impiden trabajar' },
      },
      lifting: {
        text: '¿Cómo levantas una caja pesada?',
        options: {
          a: 'Doblando la cintura, piernas rectas',
          b: 'Flexionando las rodillas, espalda recta',
          c: 'Rápido y de un solo movimiento',
        },
      },
    },
    unanswered: (count) => (count === 1 ? 'Una pregunta no tiene respuesta todavía.' : `${count} preguntas no tienen respuesta todavía.`),
    submit: 'Enviar respuestas',
    failed: (score, total, passMark, attemptsLeft) =>
      `Acertaste ${score} de ${total}; se necesitan ${passMark}. ${attemptsLeft === 1 ? 'Te queda 1 intento.' : `Te quedan ${attemptsLeft} intentos.`} Vuelve a leer los puntos de la política e inténtalo otra vez.`,
    attemptsUsed: (used, max) => `Intento ${used + 1} de ${max}.`,
  },
  failed: {
    title: 'No se pudo completar esta formación',
    quizNotPassed: (maxAttempts) =>
      `No se aprobó el cuestionario de seguridad en ${maxAttempts} intentos. Puedes empezar la formación de nuevo desde el principio.`,
  },
  signature: {
    intro: 'Al firmar, confirmas que completaste esta formación y que seguirás la política de seguridad.',
    nameLabel: 'Tu nombre completo',
    nameHint: 'Escribe tu nombre tal como aparece en tu documento de identidad.',
    nameRequired: 'Escribe tu nombre completo (al menos 2 caracteres).',
    confirm: 'Confirmo que completé esta formación personalmente.',
    mustConfirm: 'Marca la casilla para confirmar.',
    submit: 'Firmar y terminar',
  },
} satisfies SafetyTrainingTexts;
