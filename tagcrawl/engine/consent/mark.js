// Remember arguments[1] as tried (after dom.js), in the page hooks: scan.js never
// offers it again.  Without the hooks nothing is remembered.
return api ? api.markTried(arguments[1]) : true;
