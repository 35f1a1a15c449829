import type { ShellTexts } from './shell-texts.ts';

/** @internal */
export const shellTextsEs: ShellTexts = {
  documentTitle: 'Tarea de incorporación',
  opening: 'Abriendo tu tarea…',
  standalone: 'Abierta fuera del portal del trabajador: el portal no sabrá cuándo termines.',
  emulator: 'Modo emulador: el progreso va a una copia local de prueba de la plataforma, no a la real.',
  contextError: {
    title: 'El enlace de esta tarea está incompleto',
    intro: 'La página necesita cuatro valores del portal del trabajador. Estos faltan o son incorrectos:',
    missing: (param) => `Falta ${param}.`,
    invalid: (param, received) => `${param} no es un UUID (se recibió “${received}”).`,
    repeated: (param) => `${param} aparece más de una vez.`,
    workerHint: 'Si eres trabajador: vuelve a tu lista de tareas y abre la tarea de nuevo. Si vuelve a ocurrir, avisa a tu empresa.',
    developerHintTitle: 'Para desarrolladores del socio',
    developerHint:
      'Abre el portal de vista previa en /preview para lanzar la tarea con valores de prueba, o activa «Append task context» en la configuración de la tarea para que el portal añada wxWorkerUuid, wxAssignedTaskUuid, wxTaskFlowUuid y wxCompanyUuid a la URL del iframe.',
  },
  loadError: { title: 'No pudimos abrir tu tarea', retry: 'Reintentar' },
  notAvailable: { title: 'Esta tarea no se puede hacer aquí' },
  unknownWorkflow: {
    title: 'El enlace de esta tarea pide algo que no ofrecemos',
    body: (workflow) =>
      `El enlace de esta tarea indica el flujo «${workflow}», que este socio no ofrece, así que la tarea no se puede abrir aquí. No se guardó nada.`,
    workerHint:
      'Si eres trabajador: avisa a quien te asignó esta tarea, o a tu empresa, de que el enlace de la tarea indica un flujo que el socio no ofrece. Pueden corregir la tarea; hasta entonces, reintentar no servirá.',
    developerHintTitle: 'Para desarrolladores del socio',
    developerHint: (workflow) =>
      `La URL del iframe de la tarea tiene la variable workflow=${workflow}. Usa el id de un flujo del registro de flujos de la aplicación (el portal de vista previa en /preview los muestra) o quita la variable para usar el flujo predeterminado.`,
  },
  unknownStep: {
    title: 'Este paso no se puede mostrar',
    body: (step) =>
      `Tu tarea está en un paso («${step}») que esta página no sabe mostrar, así que aquí no hay nada que rellenar. Lo que guardaste antes se conserva.`,
    workerHint:
      'Recarga la página: puede que la tarea haya cambiado mientras estaba abierta. Si vuelve a aparecer esta pantalla, avisa a quien te asignó esta tarea.',
    reload: 'Recargar la página',
    developerHintTitle: 'Para desarrolladores del socio',
    developerHint: (workflow, step) =>
      `El paso actual de la tarea es «${step}», que el flujo «${workflow}» tal como lo conoce esta página no tiene, o que las pantallas del flujo en el registro de flujos de la aplicación no muestran. Despliega la página y el servidor juntos, dale una pantalla al paso o reinicia la tarea para que empiece en el primer paso.`,
  },
  unsaved: {
    message:
      'Todavía no se guardó: ahora no podemos conectar con el servidor (puede que no tengas conexión). Lo que escribiste sigue aquí y lo guardaremos en cuanto vuelva la conexión.',
    retryNow: 'Reintentar ahora',
  },
  progress: (step, total) => `Paso ${step} de ${total}`,
  progressLabel: 'Progreso',
  saving: 'Guardando…',
  saved: 'Guardado.',
  errors: {
    network: 'No pudimos conectar con el servidor. Revisa tu conexión y vuelve a intentarlo: tus respuestas siguen aquí.',
    server: 'Algo falló de nuestro lado y no se guardó nada. Vuelve a intentarlo en un momento.',
    rate_limited: 'Demasiados intentos en poco tiempo. Espera un minuto y vuelve a intentarlo.',
    session: 'Tu sesión terminó. Recarga la página para seguir donde lo dejaste.',
    task_changed: 'Esta tarea cambió en otra ventana. Recargamos tu progreso: revisa este paso de nuevo.',
    invalid: 'Faltan respuestas o no son válidas. Revisa los campos marcados.',
    unknown_company:
      'Esta tarea todavía no está configurada para tu empresa, así que no se puede hacer aquí. Avisa al administrador de tu empresa o a quien te la asignó; no se guardó nada.',
    task_rejected:
      'El portal no reconoce esta tarea, así que no se puede hacer aquí. Ábrela de nuevo desde tu lista de tareas del portal; si vuelve a pasar, avisa a quien te la asignó.',
    context_mismatch:
      'Esta tarea ya se abrió con otros datos. Ábrela de nuevo desde tu lista de tareas del portal; si vuelve a pasar, avisa a quien te la asignó, que puede liberarla para ti.',
    unknown_workflow:
      'El enlace de esta tarea indica un flujo que este socio no ofrece. Avisa a quien te asignó esta tarea; no se guardó nada.',
    unknown: 'Ocurrió algo inesperado. Recarga la página para seguir donde lo dejaste.',
  },
  done: {
    title: 'Terminado',
    body: (date) => `Completaste esta tarea el ${date}. Ya puedes continuar en el portal.`,
    portalNotified: 'Enviamos al portal el aviso de que terminaste. Si no avanza solo, vuelve a tu lista de tareas en el portal.',
    standaloneNotice: 'Esta página no está dentro del portal del trabajador, así que no se avisó a ningún portal.',
    reopened: {
      title: 'Ya completaste esta tarea',
      completedOn: (date) => `Completada el ${date}.`,
      redo: '¿Te pidieron que la hicieras de nuevo, por ejemplo porque se reinició o no se aprobó? Empieza de nuevo desde el principio.',
      keep: 'Dejarla como está',
      kept: 'No se cambió nada: la tarea sigue completada. Puedes volver al portal.',
    },
  },
  failed: {
    title: 'No se pudo completar esta tarea',
    attemptsExhausted: (max) =>
      `Un paso de esta tarea no se aprobó en ${max} intentos. Puedes empezar esta tarea de nuevo desde el principio.`,
    other: 'Este intento terminó con un problema. Puedes empezar de nuevo desde el principio.',
    problem: 'Este intento terminó con un problema.',
    nextStep: 'Puedes empezar de nuevo desde el principio.',
  },
  back: 'Volver',
  restart: {
    startAgain: 'Empezar de nuevo',
    startOver: 'Empezar de nuevo desde el principio',
    confirm: 'Empezar de nuevo borra las respuestas de este intento.',
    yes: 'Sí, empezar de nuevo',
    cancel: 'Cancelar',
  },
  loadingStep: 'Cargando este paso…',
};
