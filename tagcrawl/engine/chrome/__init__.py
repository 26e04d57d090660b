"""Chrome's lifecycle: building a driver (local or Grid), the per-worker pool,
spare contexts, one crawl's browser context (``session``), the CDP client, and
driving a page (DevTools clicks, frames)."""
