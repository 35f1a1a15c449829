import type { WorkAuthorizationTexts } from './texts';

export default {
  stepTitles: {
    citizenship: '¿Es usted ciudadano?',
    'national-id': 'Su número de documento nacional',
    document: 'Su documento de autorización de trabajo',
    photos: 'Fotos de su documento',
    postcode: '¿Dónde vive?',
    appointment: 'Reserve una cita de verificación',
    verification: 'Estamos verificando sus documentos',
  },
  submit: 'Continuar',
  citizenship: {
    intro: 'Los ciudadanos indican su número de documento nacional; los demás, el documento que les permite trabajar aquí.',
    legend: '¿Es usted ciudadano de este país?',
    yes: 'Sí',
    no: 'No',
    error: 'Elija sí o no.',
  },
  nationalId: {
    label: 'Número de documento nacional',
    hint: 'De 6 a 12 letras o cifras, como figura en su documento.',
    error: 'Escriba su número de documento nacional: de 6 a 12 letras o cifras.',
    saved: (lastTwo) =>
      `Hay guardado un número que termina en ${lastTwo}. Por su seguridad no se muestra: escríbalo de nuevo para continuar o para cambiarlo.`,
  },
  document: {
    intro: 'El documento que le permite trabajar aquí y el último día en que es válido.',
    typeLabel: 'Tipo de documento',
    typePlaceholder: 'Elija un documento',
    typeError: 'Elija el tipo de su documento.',
    types: { passport: 'Pasaporte', 'residence-permit': 'Permiso de residencia', 'work-visa': 'Visado de trabajo' },
    expiryLabel: 'Fecha de caducidad',
    expiryHint: 'El último día en que el documento es válido.',
    expiryError: 'Escriba la fecha de caducidad como una fecha real.',
    expiryPast: 'La fecha de caducidad debe ser posterior a hoy: un documento caducado no sirve.',
  },
  photos: {
    intro: 'Una foto de cada cara del documento que indicó, para que podamos revisarlo antes de su cita.',
    frontLabel: 'Cara delantera del documento',
    frontHint: 'La cara con su foto. Póngalo sobre una superficie plana con buena luz, con todo el documento en la imagen.',
    backLabel: 'Cara trasera del documento',
    backHint: 'La otra cara, de la misma forma. JPEG, PNG o HEIC, de 10 MB como máximo cada una.',
    missingFront: 'Añada una foto de la cara delantera de su documento.',
    missingBack: 'Añada una foto de la cara trasera de su documento.',
    stillUploading: 'Esta foto aún se está subiendo: espere a que termine y luego continúe.',
    refused: 'Esta foto ya no se puede usar. Añádala de nuevo.',
  },
  postcode: {
    label: 'Código postal',
    hint: 'Le ofrecemos citas cerca de usted.',
    error: 'Escriba su código postal: de 3 a 10 letras, cifras, espacios o guiones.',
  },
  verification: {
    what: 'Estamos comprobando que sus documentos le permiten trabajar aquí.',
    howLong: 'Suele tardar un día laborable después de su cita.',
    mayClose: 'Puede cerrar esta página: la tarea avanza sola cuando termine la verificación.',
    watching: 'Esta página se actualiza sola mientras esté abierta.',
  },
  done: {
    title: 'Su autorización de trabajo está verificada',
    body: 'Hemos comprobado sus documentos y puede trabajar en los puestos que solicitó.',
    next: 'Puede volver a su lista de tareas en el portal.',
  },
} satisfies WorkAuthorizationTexts;
