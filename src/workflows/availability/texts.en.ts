import type { AvailabilityTexts } from './texts';

export default {
  stepTitles: {
    start: 'When can you start?',
    shifts: 'Which shifts can you work?',
    hours: 'How many hours a week?',
  },
  start: {
    intro: 'Tell us when you can start, which shifts suit you and how much you want to work.',
    estimate: (minutes) => `It takes about ${minutes} minutes. Your answers are saved after each step.`,
    dateLabel: 'First day you can work',
    dateHint: 'From today up to one year ahead.',
    errors: {
      missing: 'Enter the first day you can work.',
      invalid: 'Enter a real date, for example 2027-03-14 (year, month, day).',
      past: 'The date cannot be in the past. Choose today or a later day.',
      tooFar: 'Choose a date no more than one year from today.',
    },
    continue: 'Continue',
  },
  shifts: {
    legend: 'Shifts you can work',
    hint: 'Choose all that apply.',
    names: {
      morning: 'Mornings (6:00 to 14:00)',
      afternoon: 'Afternoons (14:00 to 22:00)',
      night: 'Nights (22:00 to 6:00)',
      weekend: 'Weekends',
    },
    mustChoose: 'Choose at least one shift.',
    transport: {
      legend: 'Do you have transport home after midnight?',
      yes: 'Yes',
      no: 'No',
      mustAnswer: 'Tell us whether you have transport home after midnight.',
    },
    weekends: {
      legend: 'How many weekends a month can you work?',
      option: (count) => (count === 1 ? '1 weekend' : count === 4 ? '4 weekends (every weekend)' : `${count} weekends`),
      mustAnswer: 'Choose how many weekends a month you can work.',
    },
    continue: 'Continue',
  },
  hours: {
    hoursLabel: 'Most hours you can work in a week',
    hoursHint: (min, max) => `A whole number from ${min} to ${max}.`,
    hoursError: (min, max) => `Enter a whole number of hours from ${min} to ${max}.`,
    noteLabel: 'Anything else we should know? (optional)',
    noteHint: 'For example, days or times you cannot work.',
    noteCount: (used, max) => `${used} of ${max} characters used.`,
    noteTooLong: (max) => `The note is too long: shorten it to ${max} characters or fewer.`,
    submit: 'Send my availability',
  },
} satisfies AvailabilityTexts;
