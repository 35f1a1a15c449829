import type { SafetyTrainingTexts } from './texts';

export default {
  stepTitles: {
    welcome: 'Workplace safety training',
    policy: 'Read the safety policy',
    quiz: 'Safety quiz',
    signature: 'Sign the training record',
  },
  welcome: {
    intro: 'Before your first shift, this short training covers how we keep each other safe at work.',
    estimate: (minutes) => `It takes about ${minutes} minutes. Your progress is saved after each step, so you can stop and come back.`,
    stepCount: (count) => `The training has ${count} steps:`,
    outline: {
      welcome: 'Read this introduction',
      policy: 'Read the safety policy',
      quiz: 'Answer five questions',
      signature: 'Sign with your name',
    },
    begin: 'Begin the training',
  },
  policy: {
    version: (version) => `Policy ${version}`,
    sections: [
      {
        title: 'Emergency exits',
        body: 'Keep emergency exits and the routes to them clear at all times. Never block or lock a fire door.',
      },
      { title: 'Spills and hazards', body: 'Mark a spill or hazard off first so nobody slips, then report it to your supervisor.' },
      { title: 'Protective equipment', body: 'Check your protective equipment before each use. Replace anything that is damaged.' },
      { title: 'Injuries', body: 'Report every injury, however small, to your supervisor on the same day.' },
      {
        title: 'Lifting',
        body: 'Lift with bent knees and a straight back, keeping the load close to your body. Ask for help with heavy loads.',
      },
    ],
    acknowledge: 'I have read and understood the safety policy.',
    mustAcknowledge: 'Tick the box to confirm you have read the policy.',
    continue: 'Continue to the quiz',
  },
  quiz: {
    intro: (passMark, total, maxAttempts) =>
      `Answer all ${total} questions. You need ${passMark} correct answers to pass, and you have ${maxAttempts} attempts.`,
    questions: {
      exits: {
        text: 'When must emergency exits be kept clear?',
        options: { a: 'Only during fire drills', b: 'At all times', c: 'At the end of each shift' },
      },
      spill: {
        text: 'You notice a spill on the floor. What do you do first?',
        options: { a: 'Mark it off so nobody slips', b: 'Finish your current task', c: 'Wait for the cleaning team' },
      },
      ppe: {
        text: 'When should you check your protective equipment?',
        options: { a: 'Once a month', b: 'Only when it looks damaged', c: 'Before each use' },
      },
      injury: {
        text: 'Which injuries must be reported?',
        options: { a: 'Every injury, the same day', b: 'Only injuries that need a doctor', c: 'Only injuries that stop work' },
      },
      lifting: {
        text: 'How do you lift a heavy box?',
        options: { a: 'Bend at the waist, legs straight', b: 'Bend your knees, back straight', c: 'Lift it quickly in one move' },
      },
    },
    unanswered: (count) => (count === 1 ? 'One question has no answer yet.' : `${count} questions have no answer yet.`),
    submit: 'Submit answers',
    failed: (score, total, passMark, attemptsLeft) =>
      `You answered ${score} of ${total} correctly; ${passMark} are needed. ${attemptsLeft === 1 ? 'You have 1 attempt left.' : `You have ${attemptsLeft} attempts left.`} Read the policy points again and try once more.`,
    attemptsUsed: (used, max) => `Attempt ${used + 1} of ${max}.`,
  },
  failed: {
    title: 'This training could not be completed',
    quizNotPassed: (maxAttempts) =>
      `The safety quiz was not passed in ${maxAttempts} attempts. You can start the training again from the beginning.`,
  },
  signature: {
    intro: 'By signing, you confirm that you completed this training and will follow the safety policy.',
    nameLabel: 'Your full name',
    nameHint: 'Type your name as it appears on your ID.',
    nameRequired: 'Type your full name (at least 2 characters).',
    confirm: 'I confirm that I completed this training myself.',
    mustConfirm: 'Tick the box to confirm.',
    submit: 'Sign and finish',
  },
} satisfies SafetyTrainingTexts;
