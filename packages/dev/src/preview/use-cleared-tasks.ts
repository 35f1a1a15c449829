import { useState } from 'react';

/** Per origin, so two checkouts on different ports each keep their own. */
const STORAGE_KEY = 'partner-task-kit:preview:cleared-tasks';

function readCleared(): ReadonlySet<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((uuid): uuid is string => typeof uuid === 'string') : []);
  } catch {
    // Storage refused (a private window's policy) or a value written by hand: nothing is cleared.
    return new Set();
  }
}

function writeCleared(uuids: ReadonlySet<string>): void {
  try {
    if (uuids.size === 0) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, JSON.stringify([...uuids]));
  } catch {
    // Not kept across a reload then; the list is still cleared for now.
  }
}

/**
 * The tasks cleared from the preview's list. Only this browser forgets them: the emulator keeps every assignment (the
 * e2e tests and another tab may be using them, and its control API deletes none), so a task's own page still opens.
 * Kept in localStorage because the emulator's tasks outlive a reload (`npm run dev` keeps them in a file). A clear
 * stores exactly the tasks listed then, so the stored set never outgrows the emulator's list.
 */
export function useClearedTasks() {
  const [cleared, setCleared] = useState(readCleared);
  const update = (uuids: ReadonlySet<string>) => {
    writeCleared(uuids);
    setCleared(uuids);
  };
  return {
    cleared,
    clear: (listed: readonly string[]) => update(new Set(listed)),
    restore: () => update(new Set()),
  };
}
