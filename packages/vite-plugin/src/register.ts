import 'tsx';
import { register } from 'node:module';

/**
 * `node --import @partner-task-kit/vite-plugin/register server/main.ts <command>`: how the app's commands run its server
 * entry from its sources (npm run migrate, doctor, tenants, …, and the server `partner-task-kit dev` restarts). tsx
 * first, for the TypeScript (as `--import tsx` did), then the hooks that give `virtual:partner-task-kit/workflows`
 * (workflows-hooks.ts). Registered after tsx, they run before it: Node runs the hooks last registered first.
 */
const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
register(`./workflows-hooks.${extension}`, import.meta.url);
