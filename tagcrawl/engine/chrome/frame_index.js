// The frame index of arguments[0]: its position among the iframes under <body> and the
// frames of a frameset, in document order; -1 when it is none of them (in a shadow root).
const list = document.evaluate("(/html/body//iframe|/html/frameset//frame)", document, null,
                                 XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
for (let i = 0; i < list.snapshotLength; i++) if (list.snapshotItem(i) === arguments[0]) return i;
return -1;
