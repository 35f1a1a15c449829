// The development tools' Node entry (docs/architecture.md#the-dev-package): `devTools`, what the server loads in
// emulator mode (packages/server/src/dev-tools/dev-tools.ts), and the emulator on its own for tests and other clients.
import type { DevTools } from '@partner-task-kit/server';
import { emulatorMode } from './emulator-mode.ts';
import { startEmulator } from './emulator/start-emulator.ts';

export const devTools: DevTools = { emulatorMode, startEmulator };

export { startEmulator, type RunningEmulator, type StartEmulatorOptions } from './emulator/start-emulator.ts';
export { emulatorPlugin, type EmulatorPluginOptions } from './emulator/emulator-plugin.ts';
export { EmulatorState } from './emulator/emulator-state.ts';
export { OffsetClock, type EmulatorClock } from './emulator/emulator-clock.ts';
export { EMULATOR_CREDENTIAL } from './emulator/emulator-credential.ts';
export type { EmulatorCredential, EmulatorOptions, EmulatorSettings } from './emulator/emulator-options.ts';
