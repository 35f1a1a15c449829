/** The credential the emulator accepts by default and the server uses in emulator mode. Not a secret: it only opens the emulator. */
export const EMULATOR_CREDENTIAL = { key: 'emulator-key', secret: 'emulator-secret' } as const;
