// Loaded into the processes `partner-task-kit dev` (the app's `npm run dev`) starts (through NODE_OPTIONS, so into tsx
// watch and into the server it runs): when the process that started this one is gone, this one stops too. A parent that exits in order stops its children
// itself; this is for the parent that cannot (killed with SIGKILL, or crashed), whose children would otherwise keep
// the ports and run on unseen. Once a process's parent is gone it is adopted (by init or a subreaper), so its parent
// process id changes: that is what is watched.
const parent = process.ppid;
const timer = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(timer);
  // SIGTERM rather than an exit: each process stops in its own way (tsx watch stops the server, which finishes the
  // deliveries in flight). Should that hang, the process exits all the same.
  setTimeout(() => process.exit(1), 10_000).unref();
  process.kill(process.pid, 'SIGTERM');
}, 500);
// The watch alone never keeps a process alive.
timer.unref();

// A module of its own: nothing to export, but its names stay out of the global scope.
export {};
