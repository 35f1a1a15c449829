import type { ReactNode } from 'react';

/** The frame of every screen: one main landmark, and discreet notes in the footer (standalone, emulator). */
export function PageShell({ children, notes = [] }: { children: ReactNode; notes?: readonly string[] }) {
  return (
    <div className="shell">
      <main className="page">{children}</main>
      {notes.length > 0 && (
        <footer className="notes">
          {notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
        </footer>
      )}
    </div>
  );
}
