import type { BackgroundCheckTexts } from './texts';

export default {
  stepTitles: {
    consent: 'Consent to a background check',
    check: 'Your background check is under way',
  },
  consent: {
    intro: 'We check the identity and the records the role requires. Nothing is checked without your consent.',
    nameLabel: 'Full name',
    nameHint: 'As it appears on your identity document.',
    nameError: 'Enter your full name, 2 to 100 characters.',
    agreeLabel: 'I agree to the background check described above.',
    agreeError: 'The check needs your consent: tick the box to go on.',
    submit: 'Give consent',
  },
  check: {
    what: 'We are checking your identity and the records the role requires.',
    howLong: 'It usually takes one to two working days.',
    mayClose: 'You may close this page: the task moves on by itself when the check is done, and you will find it there.',
    watching: 'This page updates by itself while it stays open.',
  },
} satisfies BackgroundCheckTexts;
