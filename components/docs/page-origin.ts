// The reference is rendered once, without a request: examples carry this stand-in, which the browser replaces with the
// page's own origin (components/docs/code-block.tsx), so that a copied curl line calls the server the reader is on.
export const ORIGIN_STAND_IN = 'https://carrier.example';
