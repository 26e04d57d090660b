"""The capture hub of a crawl: every target of its browser context, the main
document, the page's activity (the quiet wait), frames, the flush, and the
page hooks (``hooks``, ``page_hooks.js``, ``native_mask.js``)."""
