import type { WorkAuthorizationTexts } from './texts';

export default {
  stepTitles: {
    citizenship: 'Are you a citizen?',
    'national-id': 'Your national ID number',
    document: 'Your work authorization document',
    photos: 'Photos of your document',
    postcode: 'Where do you live?',
    appointment: 'Book a verification appointment',
    verification: 'We are verifying your documents',
  },
  submit: 'Continue',
  citizenship: {
    intro: 'Citizens give their national ID number; everyone else gives the document that lets them work here.',
    legend: 'Are you a citizen of this country?',
    yes: 'Yes',
    no: 'No',
    error: 'Choose yes or no.',
  },
  nationalId: {
    label: 'National ID number',
    hint: '6 to 12 letters or digits, as printed on your ID card.',
    error: 'Enter your national ID number: 6 to 12 letters or digits.',
    saved: (lastTwo) =>
      `A number ending in ${lastTwo} is saved. For your safety it is not shown: type it again to continue or to change it.`,
  },
  document: {
    intro: 'The document that allows you to work here, and the last day it is valid.',
    typeLabel: 'Document type',
    typePlaceholder: 'Choose a document',
    typeError: 'Choose the type of your document.',
    types: { passport: 'Passport', 'residence-permit': 'Residence permit', 'work-visa': 'Work visa' },
    expiryLabel: 'Expiry date',
    expiryHint: 'The last day the document is valid.',
    expiryError: 'Enter the expiry date as a real date.',
    expiryPast: 'The expiry date must be after today: a document that has expired cannot be used.',
  },
  photos: {
    intro: 'A photo of each side of the document you gave, so that we can check it before your appointment.',
    frontLabel: 'Front of the document',
    frontHint: 'The side with your photo. Lay it flat in good light, with the whole document in the picture.',
    backLabel: 'Back of the document',
    backHint: 'The other side, in the same way.',
    missingFront: 'Add a photo of the front of your document.',
    missingBack: 'Add a photo of the back of your document.',
    stillUploading: 'This photo is still uploading: wait until it is done, then continue.',
    refused: 'This photo can no longer be used. Add it again.',
  },
  postcode: {
    label: 'Postcode',
    hint: 'We offer appointments near you.',
    error: 'Enter your postcode: 3 to 10 letters, digits, spaces or hyphens.',
  },
  verification: {
    what: 'We are checking that your documents allow you to work here.',
    howLong: 'It usually takes one working day after your appointment.',
    mayClose: 'You may close this page: the task moves on by itself when the verification is done.',
    watching: 'This page updates by itself while it stays open.',
  },
  done: {
    title: 'Your work authorization is verified',
    body: 'Your documents were checked and you may work in the roles you applied for.',
    next: 'You can go back to your task list in the portal.',
  },
} satisfies WorkAuthorizationTexts;
