"""The browser tag: built from the vendor catalog (``build``) on its template (``template.js``)."""
