/**
 * The server's future flags (docs/upgrading.md#future-flags). Each is a change of behaviour an app could notice: a
 * minor version brings it here, off by default, for the app to turn on in `runKit`'s `future`; the next major
 * version turns it on for every app and removes the flag. None is pending: this interface gains a property, with a
 * comment saying what it changes, when one is.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- empty until a minor version brings a flag
export interface FutureFlags {}

/** Every flag and its value when the app leaves it out: off. Typed so a flag added above must be added here. */
const futureFlagDefaults: FutureFlags = {};

/** The section an unknown flag's message sends a developer to. */
const FUTURE_FLAGS_DOCS = 'docs/upgrading.md#future-flags';

/**
 * The flags as the server runs them: the defaults, with what the app turned on or off. Checked at run time, since an
 * app in plain JavaScript has no compiler to catch a misspelt flag, or one a major version removed, which would
 * otherwise be ignored without a word while the app believes it on. `defaults` is the table of known flags (a test
 * passes its own).
 */
export function resolveFutureFlags<Flags extends object = FutureFlags>(
  given: unknown,
  defaults: Flags = futureFlagDefaults as Flags,
): Flags {
  if (given === undefined) return { ...defaults };
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw new Error(`runKit's \`future\` must be an object of flags, each true or false (${FUTURE_FLAGS_DOCS})`);
  const known = Object.keys(defaults);
  const problems: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    if (!known.includes(name)) problems.push(`"${name}" is not a future flag of this version`);
    else if (typeof value !== 'boolean') problems.push(`"${name}" must be true or false, not ${JSON.stringify(value)}`);
  }
  if (problems.length > 0) {
    const flags = known.length > 0 ? `its flags: ${known.join(', ')}` : 'it has none';
    throw new Error(
      `runKit's \`future\`: ${problems.join('; ')} (${flags}). A flag is removed by the major version that turns its behaviour on for every app: delete it from \`future\` then. See ${FUTURE_FLAGS_DOCS}.`,
    );
  }
  return { ...defaults, ...(given as Partial<Flags>) };
}
