import { secureHeaders } from 'hono/secure-headers';

/**
 * Headers every response carries. The CSP fits the built SPA: its scripts and styles are files
 * under /assets (no inline script); inline `style` attributes are what React and the chart
 * library set; `connect-src` stays open to http(s) because a user may point the usage tab or the
 * playground at a LangSmith or deployment URL of their own, called from the browser.
 */
export function securityHeaders() {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", 'https:', 'http:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'same-origin',
    // The SPA loads nothing cross-origin, but the defaults (require-corp) would stop a future
    // image or font from a CDN in a way that is hard to trace; CORP keeps its same-origin default.
    crossOriginEmbedderPolicy: false,
  });
}
