import { describe, expect, it } from 'vitest';
import { DevToolsMissing, EMULATOR_MODE, loadDevTools } from '@partner-task-kit/server/dev-tools/dev-tools';

// The server takes the emulator and the stand-in from @partner-task-kit/dev at run time (docs/architecture.md#the-dev-package).
describe('loading the dev tools', () => {
  it('loads @partner-task-kit/dev by its name', async () => {
    const devTools = await loadDevTools(EMULATOR_MODE);
    expect(typeof devTools.emulatorMode).toBe('function');
    expect(typeof devTools.startEmulator).toBe('function');
  });

  it('refuses, saying what to do, where the package is not installed', async () => {
    const loading = loadDevTools(EMULATOR_MODE, '@partner-task-kit/not-installed');
    await expect(loading).rejects.toBeInstanceOf(DevToolsMissing);
    await expect(loading).rejects.toThrow(
      /^emulator mode \(no WX_API_KEY, no CREDENTIALS_KEY\) needs @partner-task-kit\/dev, which is not installed: add it as a dev dependency .*or set the production settings/,
    );
  });

  it('says a package that is no dev tools is the wrong one, not a missing one', async () => {
    const loading = loadDevTools(EMULATOR_MODE, '@partner-task-kit/workflow');
    await expect(loading).rejects.toThrow('@partner-task-kit/workflow has no devTools');
    await expect(loading).rejects.not.toBeInstanceOf(DevToolsMissing);
  });
});
