import { mountTaskPage } from '@partner-task-kit/page';
// After the kit's styles, which mountTaskPage's module imports: this app's colours win over them.
import './theme.css';
import { shellTexts } from './shell-texts';

/**
 * The page's entry, this app's: it starts the engine's task page in index.html's #root with the table of this app's
 * workflow screens, which the kit's build writes from the folders in src/workflows/ and keeps a chunk of its own (a
 * dynamic import()), and this app's versions of some of the shell's texts.
 */
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
mountTaskPage(root, () => import('virtual:partner-task-kit/screens'), shellTexts);
