export type MarkdownRenderer = (markdown: string) => string;

type Libraries = {
  Marked: typeof import('marked').Marked;
  createPurifier: typeof import('dompurify').default;
};

let loading: Promise<Libraries> | undefined;

function loadLibraries(): Promise<Libraries> {
  loading ??= Promise.all([import('marked'), import('dompurify')]).then(([marked, dompurify]) => ({
    Marked: marked.Marked,
    createPurifier: dompurify.default,
  }));
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Link targets kept: web and mail links, fragments, and relative paths. Any other scheme goes. */
const SafeLinkPattern = /^(?:https?:|mailto:|#|[^:]*$|[^:/?#]*[/?#])/i;
/** Image sources kept as they are; anything else is resolved or dropped. */
const DirectImagePattern = /^(?:https?:|data:image\/(?:png|gif|jpe?g|webp);)/i;

/**
 * Loads marked and DOMPurify (a chunk of their own) and returns a renderer from Markdown to HTML
 * that is safe to insert: no script, event handler, form, frame or style element survives, and
 * no link or image keeps a scheme that could run code (`javascript:` links lose their target).
 * Links open in a new tab without an opener. `resolveImage` maps a relative image source to a
 * URL the page can load, or undefined to drop it.
 */
export async function loadMarkdownRenderer(resolveImage: (source: string) => string | undefined): Promise<MarkdownRenderer> {
  const { Marked, createPurifier } = await loadLibraries();
  const marked = new Marked({ gfm: true, async: false });
  const purifier = createPurifier(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href');
      if (href !== null && !SafeLinkPattern.test(href.trim())) node.removeAttribute('href');
      const kept = node.getAttribute('href');
      if (kept !== null && !kept.startsWith('#')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    }
    if (node.tagName === 'IMG') {
      const source = (node.getAttribute('src') ?? '').trim();
      const resolved = DirectImagePattern.test(source) ? source : source && !/^[a-z][a-z0-9+.-]*:/i.test(source) ? resolveImage(source) : undefined;
      if (resolved) node.setAttribute('src', resolved);
      else node.removeAttribute('src');
      node.setAttribute('loading', 'lazy');
    }
  });
  return (markdown) =>
    purifier.sanitize(marked.parse(markdown) as string, {
      USE_PROFILES: { html: true },
      FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'base', 'meta', 'link'],
      FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
    });
}
