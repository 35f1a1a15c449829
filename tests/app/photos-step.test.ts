import { describe, expect, it } from 'vitest';
import { acceptOf, fileProblem, type Locale, type StepRefusal } from '@partner-task-kit/page/screens';
import { documentPhotoRule, workAuthorizationSchemas } from '../../src/workflows/work-authorization/definition';
import PhotosStep from '../../src/workflows/work-authorization/steps/photos';
import workAuthorizationTextsEn from '../../src/workflows/work-authorization/texts.en';
import workAuthorizationTextsEs from '../../src/workflows/work-authorization/texts.es';
import { renderScreen } from '@partner-task-kit/testing';

const FRONT = 'F'.repeat(22);
const BACK = 'B'.repeat(22);

/** The screen as the page renders it, with the stored files' bytes already loaded (GET /api/task/uploads/:id). */
function render(locale: Locale, options: { savedData?: unknown; refusal?: StepRefusal; stored?: Record<string, Blob> } = {}): string {
  return renderScreen(PhotosStep, {
    workflow: 'work-authorization',
    stepId: 'photos',
    locale,
    texts: locale === 'es' ? workAuthorizationTextsEs : workAuthorizationTextsEn,
    savedData: options.savedData,
    ...(options.refusal ? { refusal: options.refusal } : {}),
    ...(options.stored ? { storedFiles: options.stored } : {}),
  });
}

describe('work-authorization: the photos step', () => {
  it('takes the id of an upload for each side, nothing else', () => {
    const problems = (data: unknown) =>
      (workAuthorizationSchemas.photos.safeParse(data).error?.issues ?? []).map((issue) => issue.path.join('.'));
    expect(problems({ front: FRONT, back: BACK })).toEqual([]);
    expect(problems({ front: FRONT })).toEqual(['back']);
    expect(problems({ front: 'photo.jpg', back: BACK, extra: 1 })).toEqual(['front', '']);
  });

  it.each([
    ['en', ['Front of the document', 'Back of the document'], ['Take a photo', 'Choose a file']],
    ['es', ['Cara delantera del documento', 'Cara trasera del documento'], ['Hacer una foto', 'Elegir un archivo']],
  ] as const)('renders in %s a group per side: its legend, hint, a camera button and a file button', (locale, legends, buttons) => {
    const html = render(locale);
    expect(html).toContain('<h1 id="step-title"');
    expect([...html.matchAll(/<legend id="(photos-[a-z]+)-label">([^<]+)<\/legend>/g)].map((match) => [match[1], match[2]])).toEqual([
      ['photos-front', legends[0]],
      ['photos-back', legends[1]],
    ]);
    for (const side of ['front', 'back']) {
      // The first button carries the field's id (a refused submit focuses it), and each is read with the hint and rules.
      const described = `aria-describedby="photos-${side}-hint photos-${side}-rules"`;
      expect(html).toMatch(new RegExp(`<button[^>]*id="photos-${side}"[^>]*${described}[^>]*>${buttons[0]}</button>`));
      expect(html).toMatch(new RegExp(`<button[^>]*id="photos-${side}-choose"[^>]*${described}[^>]*>${buttons[1]}</button>`));
    }
    // The file inputs are pressed by the buttons: hidden, out of the tab order, the camera's asking for the back camera.
    const inputs = [...html.matchAll(/<input [^>]*>/g)].map((match) => match[0]);
    expect(inputs).toHaveLength(4);
    for (const input of inputs) expect(input).toMatch(/type="file".*hidden="".*tabindex="-1"/);
    expect(inputs.filter((input) => input.includes('capture="environment"') && input.includes('accept="image/*"'))).toHaveLength(2);
    expect(inputs.filter((input) => input.includes(`accept="${acceptOf(documentPhotoRule)}"`))).toHaveLength(2);
    expect(html).not.toContain('<img');
  });

  it.each([
    ['en', 'JPEG, PNG, or HEIC, at most 10 MB.'],
    ['es', 'JPEG, PNG o HEIC, de 10 MB como máximo.'],
  ] as const)('says in %s the types and the size each side takes, under each side, not once for the last', (locale, rules) => {
    const html = render(locale);
    const groups = html.split('<fieldset').slice(1);
    expect(groups).toHaveLength(2);
    for (const [index, side] of ['front', 'back'].entries()) {
      expect(groups[index]).toContain(`<p id="photos-${side}-rules" class="hint">${rules}</p>`);
    }
    // The hints no longer carry a rule of their own: it is said once per field, from the field's rule.
    expect(html.split(rules)).toHaveLength(3);
  });

  it('shows saved photos again, each named for what it shows, and offers to replace them', () => {
    const jpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });
    const html = render('en', { savedData: { front: FRONT, back: BACK }, stored: { [FRONT]: jpeg, [BACK]: jpeg } });
    expect(html).toContain('<img alt="Your file: Front of the document" class="file-preview"/>');
    expect(html).toContain('<img alt="Your file: Back of the document" class="file-preview"/>');
    expect(html.match(/role="status" class="file-status">Uploaded.</g)).toHaveLength(2);
    expect(html).toContain('>Take another photo</button>');
    expect(html).toContain('>Choose another file</button>');
  });

  it("puts the server's refusal of a side on that side's group, read with its buttons, in the worker's language", () => {
    const html = render('es', { savedData: { front: FRONT, back: BACK }, refusal: { field: 'data.back', message: 'data.back must be…' } });
    expect(html).toContain('id="photos-back-error" class="field-error">Esta foto ya no se puede usar. Añádela de nuevo.');
    expect(html).toMatch(/<button[^>]*id="photos-back"[^>]*aria-describedby="photos-back-hint photos-back-rules photos-back-error"/);
    expect(html).not.toContain('photos-front-error');
  });
});

describe('what the browser can tell of a file before sending it', () => {
  const file = (name: string, type: string, size = 1000) => ({ name, type, size });

  it('refuses a file over the field size, and one of a type the field does not take', () => {
    expect(fileProblem(file('big.jpg', 'image/jpeg', 10 * 1024 * 1024 + 1), documentPhotoRule)).toBe('size');
    expect(fileProblem(file('scan.pdf', 'application/pdf'), documentPhotoRule)).toBe('type');
    expect(fileProblem(file('notes.txt', 'text/plain'), documentPhotoRule)).toBe('type');
    expect(fileProblem(file('clip.gif', 'image/gif'), documentPhotoRule)).toBe('type');
    expect(fileProblem(file('scan.pdf', ''), documentPhotoRule)).toBe('type');
  });

  it("takes the field's types by the browser's name for them, or by the file's name when it says none", () => {
    expect(fileProblem(file('id.jpg', 'image/jpeg', 10 * 1024 * 1024), documentPhotoRule)).toBeUndefined();
    expect(fileProblem(file('IMG_0001.HEIC', 'image/heif'), documentPhotoRule)).toBeUndefined();
    expect(fileProblem(file('IMG_0001.HEIC', ''), documentPhotoRule)).toBeUndefined();
    expect(fileProblem(file('photo.png', 'application/octet-stream'), documentPhotoRule)).toBeUndefined();
    // Nothing to go by: the server reads the type from the bytes.
    expect(fileProblem(file('camera-roll-item', ''), documentPhotoRule)).toBeUndefined();
  });
});
