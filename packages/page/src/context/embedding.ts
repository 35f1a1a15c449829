/**
 * True when the page runs inside a frame (the worker portal's iframe). Reading `window.top` of a cross-origin parent
 * is allowed (only its properties are not), but a sandboxed frame may still throw: that, too, means framed.
 */
export function isEmbedded(win: Window = window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    return true;
  }
}

/**
 * The origin of the page that frames this one, when the browser says (Chromium and WebKit expose
 * `location.ancestorOrigins`; Firefox does not, and a parent's referrer policy may hide it as "null").
 */
export function parentOrigin(win: Window = window): string | undefined {
  const first = win.location.ancestorOrigins?.[0];
  return first === undefined || first === 'null' ? undefined : first;
}
