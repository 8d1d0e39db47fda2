// One record per page for `render-desk batch`: the Blog post header template's fields, named
// by slug. Eleventy writes it to _site/og-pages.json.
export const data = { permalink: '/og-pages.json', eleventyExcludeFromCollections: true };

export function render({ collections }) {
  const records = collections.all
    .filter((page) => page.data.title)
    .map((page) => ({
      slug: page.fileSlug || 'index',
      title: page.data.title,
      author: page.data.author ?? 'The team',
      category: page.data.category ?? '',
      publishDate: page.date.toISOString().slice(0, 10),
      cover: page.data.cover ?? 'asset:cover.jpg',
    }));
  return JSON.stringify(records, null, 2);
}
