import type { WorkAuthorizationTexts } from './texts';

export default {
  stepTitles: {
    citizenship: '¿Eres ciudadano?',
    'national-id': 'Tu número de documento nacional',
    document: 'Tu documento de autorización de trabajo',
    photos: 'Fotos de tu documento',
    postcode: '¿Dónde vives?',
    appointment: 'Reserva una cita de verificación',
    verification: 'Estamos verificando tus documentos',
  },
  submit: 'Continuar',
  citizenship: {
    intro: 'Si eres ciudadano, indica tu número de documento nacional; si no, el documento que te permite trabajar aquí.',
    legend: '¿Eres ciudadano de este país?',
    yes: 'Sí',
    no: 'No',
    error: 'Elige sí o no.',
  },
  nationalId: {
    label: 'Número de documento nacional',
    hint: 'De 6 a 12 letras o cifras, como figura en tu documento.',
    error: 'Escribe tu número de documento nacional: de 6 a 12 letras o cifras.',
    saved: (lastTwo) =>
      `Hay guardado un número que termina en ${lastTwo}. Por tu seguridad no se muestra: escríbelo de nuevo para continuar o para cambiarlo.`,
  },
  document: {
    intro: 'El documento que te permite trabajar aquí y el último día en que es válido.',
    typeLabel: 'Tipo de documento',
    typePlaceholder: 'Elige un documento',
    typeError: 'Elige el tipo de tu documento.',
    types: { passport: 'Pasaporte', 'residence-permit': 'Permiso de residencia', 'work-visa': 'Visado de trabajo' },
    expiryLabel: 'Fecha de caducidad',
    expiryHint: 'El último día en que el documento es válido.',
    expiryError: 'Escribe la fecha de caducidad como una fecha real.',
    expiryPast: 'La fecha de caducidad debe ser posterior a hoy: un documento caducado no sirve.',
  },
  photos: {
    intro: 'Una foto de cada cara del documento que indicaste, para que podamos revisarlo antes de tu cita.',
    frontLabel: 'Cara delantera del documento',
    frontHint: 'La cara con tu foto. Ponlo sobre una superficie plana con buena luz, con todo el documento en la imagen.',
    backLabel: 'Cara trasera del documento',
    backHint: 'La otra cara, de la misma forma.',
    missingFront: 'Añade una foto de la cara delantera de tu documento.',
    missingBack: 'Añade una foto de la cara trasera de tu documento.',
    stillUploading: 'Esta foto aún se está subiendo: espera a que termine y luego continúa.',
    refused: 'Esta foto ya no se puede usar. Añádela de nuevo.',
  },
  postcode: {
    label: 'Código postal',
    hint: 'Te ofrecemos citas cerca de ti.',
    error: 'Escribe tu código postal: de 3 a 10 letras, cifras, espacios o guiones.',
  },
  verification: {
    what: 'Estamos comprobando que tus documentos te permiten trabajar aquí.',
    howLong: 'Suele tardar un día laborable después de tu cita.',
    mayClose: 'Puedes cerrar esta página: la tarea avanza sola cuando termine la verificación.',
    watching: 'Esta página se actualiza sola mientras esté abierta.',
  },
  done: {
    title: 'Tu autorización de trabajo está verificada',
    body: 'Hemos comprobado tus documentos y puedes trabajar en los puestos que solicitaste.',
    next: 'Puedes volver a tu lista de tareas en el portal.',
  },
} satisfies WorkAuthorizationTexts;
