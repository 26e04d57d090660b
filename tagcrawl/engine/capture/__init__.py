"""The capture hub of a crawl (``hub``) and the parts it owns: the page's
activity and the waits on it (``activity``), frames (``frames``), the main
document (``document``), the page hooks (``hooks``, ``page_hooks.js``,
``native_mask.js``); and the flush (``flush``, ``leave.js``)."""
