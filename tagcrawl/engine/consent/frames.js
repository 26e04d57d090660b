// The document's first 12 iframe and frame elements (signals.py walks them).
return Array.from(document.querySelectorAll('iframe,frame')).slice(0, 12);
