import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { resolvePortalOrigins } from './portal-origins.ts';

/**
 * The page runs inside the portal's iframe, so framing is allowed only by CSP frame-ancestors (never
 * X-Frame-Options, which cannot name another origin); scripts come only from this origin (no inline script, no
 * eval); the URL carries the task context (docs/platform.md#task-context), so no Referer ever leaves the page.
 */
function contentSecurityPolicy(config: Config, request: FastifyRequest, styleSources: readonly string[] = []): string {
  const origins = resolvePortalOrigins(config, request);
  const ancestors = origins.length > 0 ? origins.join(' ') : "'none'";
  const directives = [
    "default-src 'none'",
    "script-src 'self'",
    ["style-src 'self'", ...styleSources].join(' '),
    // blob: the preview of a file the worker chose, from the browser's own copy or fetched with the session
    // (packages/page/src/task/file-field.tsx): an object URL, never an address elsewhere.
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
    // The preview portal (when enabled) frames the task page from this server's other loopback name.
    ...(config.previewEnabled ? [`frame-src 'self' ${origins.join(' ')}`.trim()] : []),
  ];
  return directives.join('; ');
}

/**
 * The CSP of a first screen: its style-src also allows `sources`, the hashes of its inline styles, so the page's own
 * <style> applies, and no other, not even one injected into it.
 */
export function allowInlineStyles(config: Config, request: FastifyRequest, reply: FastifyReply, sources: readonly string[]): void {
  reply.header('content-security-policy', contentSecurityPolicy(config, request, sources));
}

export function setSecurityHeaders(config: Config, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('content-security-policy', contentSecurityPolicy(config, request));
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  reply.removeHeader('x-frame-options');
  // A task page's address holds a worker's task context: no page of this server is for a search engine's index, not
  // even one a link shared by mistake leads a crawler to.
  reply.header('x-robots-tag', 'noindex, nofollow');
  // API answers carry session tokens and personal progress: never cached. Hashed assets may be cached for good.
  if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  else if (request.url.startsWith('/assets/')) reply.header('cache-control', 'public, max-age=31536000, immutable');
  else reply.header('cache-control', 'no-cache');
}
