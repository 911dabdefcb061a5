import { describe, expect, it } from 'vitest';
import { loadMarkdownRenderer } from './markdown-render';

const hostile = `# Notes

Plain text, then raw HTML that must never run:

<img src=x onerror="window.__pwned=true">
<script>window.__pwned = true</script>
<iframe src="/api/users"></iframe>
<a href="JaVaScRiPt:alert(1)" onclick="alert(1)">raw link</a>
<svg><a xlink:href="javascript:alert(1)"><text>svg</text></a></svg>

[a link](javascript:alert(1))
[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)
[web](https://example.org/page)
[neighbour](other.md)
[top](#notes)
![local](pics/cat.png)
![evil](javascript:alert(1))
`;

function parse(html: string): Document {
  return new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
}

describe('markdown rendering', () => {
  it('keeps the document but no script, handler, frame or dangerous link', async () => {
    const render = await loadMarkdownRenderer((source) => `/api/raw/docs/${source}?inline=true`);
    const html = render(hostile);
    const doc = parse(html);
    expect(doc.querySelector('h1')?.textContent).toBe('Notes');
    expect(doc.querySelectorAll('script, iframe, style, form')).toHaveLength(0);
    for (const element of doc.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        expect(attribute.name.startsWith('on'), `${element.tagName} ${attribute.name}`).toBe(false);
        expect(attribute.value.toLowerCase().replace(/\s/g, '')).not.toContain('javascript:');
      }
    }
    const links = [...doc.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toContainEqual(['a link', null]);
    expect(links).toContainEqual(['data', null]);
    expect(links).toContainEqual(['raw link', null]);
    expect(links).toContainEqual(['web', 'https://example.org/page']);
    expect(links).toContainEqual(['neighbour', 'other.md']);
    expect(links).toContainEqual(['top', '#notes']);
    const web = [...doc.querySelectorAll('a')].find((link) => link.textContent === 'web')!;
    expect(web.getAttribute('rel')).toBe('noopener noreferrer');
    expect(web.getAttribute('target')).toBe('_blank');
  });

  it('resolves relative images and drops the rest', async () => {
    const render = await loadMarkdownRenderer((source) => (source.startsWith('pics/') ? `/raw/${source}` : undefined));
    const doc = parse(render(hostile));
    const sources = [...doc.querySelectorAll('img')].map((image) => [image.getAttribute('alt'), image.getAttribute('src')]);
    expect(sources).toContainEqual(['local', '/raw/pics/cat.png']);
    expect(sources).toContainEqual(['evil', null]);
    expect(sources.find(([alt]) => alt === null || alt === '')?.[1] ?? null).toBeNull();
  });

  it('renders tables and code the GitHub way', async () => {
    const render = await loadMarkdownRenderer(() => undefined);
    const doc = parse(render('| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nlet x = 1 < 2;\n```\n'));
    expect(doc.querySelectorAll('table td')).toHaveLength(2);
    expect(doc.querySelector('pre code')?.textContent).toBe('let x = 1 < 2;\n');
  });
});
