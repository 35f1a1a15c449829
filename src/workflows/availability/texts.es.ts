import type { AvailabilityTexts } from './texts';

export default {
  stepTitles: {
    start: '¿Cuándo puedes empezar?',
    shifts: '¿Qué turnos puedes hacer?',
    hours: '¿Cuántas horas a la semana?',
  },
  start: {
    intro: 'Cuéntanos cuándo puedes empezar, qué turnos te vienen bien y cuánto quieres trabajar.',
    estimate: (minutes) => `Dura unos ${minutes} minutos. Tus respuestas se guardan después de cada paso.`,
    dateLabel: 'Primer día en que puedes trabajar',
    dateHint: 'Desde hoy hasta dentro de un año.',
    errors: {
      missing: 'Indica el primer día en que puedes trabajar.',
      invalid: 'Indica una fecha real, por ejemplo 2027-03-14 (año, mes, día).',
      past: 'La fecha no puede ser anterior a hoy. Elige hoy o un día posterior.',
      tooFar: 'Elige una fecha que no pase de un año desde hoy.',
    },
    continue: 'Continuar',
  },
  shifts: {
    legend: 'Turnos que puedes hacer',
    hint: 'Elige todos los que correspondan.',
    names: {
      morning: 'Mañanas (de 6:00 a 14:00)',
      afternoon: 'Tardes (de 14:00 a 22:00)',
      night: 'Noches (de 22:00 a 6:00)',
      weekend: 'Fines de semana',
    },
    mustChoose: 'Elige al menos un turno.',
    transport: {
      legend: '¿Tienes transporte para volver a casa después de medianoche?',
      yes: 'Sí',
      no: 'No',
      mustAnswer: 'Indica si tienes transporte para volver a casa después de medianoche.',
    },
    weekends: {
      legend: '¿Cuántos fines de semana al mes puedes trabajar?',
      option: (count) => (count === 1 ? '1 fin de semana' : count === 4 ? '4 fines de semana (todos)' : `${count} fines de semana`),
      mustAnswer: 'Elige cuántos fines de semana al mes puedes trabajar.',
    },
    continue: 'Continuar',
  },
  hours: {
    hoursLabel: 'Máximo de horas que puedes trabajar a la semana',
    hoursHint: (min, max) => `Un número entero de ${min} a ${max}.`,
    hoursError: (min, max) => `Indica un número entero de horas de ${min} a ${max}.`,
    noteLabel: '¿Algo más que debamos saber? (opcional)',
    noteHint: 'Por ejemplo, días u horarios en los que no puedes trabajar.',
    noteCount: (used, max) => `${used} de ${max} caracteres usados.`,
    noteTooLong: (max) => `La nota es demasiado larga: acórtala a ${max} caracteres o menos.`,
    submit: 'Enviar mi disponibilidad',
  },
} satisfies AvailabilityTexts;
