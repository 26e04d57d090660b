"""The HAR 1.2 document of ``GET /api/v1/crawls/<sessionId>/har``, as JSON Schema components.

Source: the HAR 1.2 specification (Jan Odvarko, "HAR 1.2 Spec",
http://www.softwareishard.com/blog/har-12-spec/): each object's ``required``
list is the fields that spec says are required, and tagcrawl's own custom
fields (``_``-prefixed, as HAR allows) are declared where it writes them
(``engine/har/write.py``; docs/har.md).  Other custom fields are allowed
(``additionalProperties`` is left open), so a HAR from another tool, with its
own ``_`` fields, validates too.  Documentation only: the HAR is served as
stored, never loaded through these schemas.

``HAR_COMPONENTS`` maps component name -> JSON Schema (references are
``#/components/schemas/<name>``); ``openapi.py`` registers them.
"""
from __future__ import annotations


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(required: list[str], properties: dict, description: str) -> dict:
    return {"type": "object", "description": description, "required": required, "properties": properties}


_STR, _INT = {"type": "string"}, {"type": "integer"}
_TIME = {"type": "string", "format": "date-time"}
_MS = {"type": "number", "description": "Milliseconds; -1 when unknown."}
_SIZE = {"type": "integer", "description": "Bytes; -1 when unknown."}

HAR_COMPONENTS: dict[str, dict] = {
    "Har": _obj(["log"], {"log": _ref("HarLog")}, "A HAR 1.2 document (HTTP Archive)."),
    "HarLog": _obj(["version", "creator", "entries"], {
        "version": {"type": "string", "description": "`1.2`."},
        "creator": _ref("HarCreator"),
        "browser": _ref("HarCreator"),
        "pages": {"type": "array", "items": _ref("HarPage")},
        "entries": {"type": "array", "items": _ref("HarEntry"), "description": "In send order."},
        "comment": _STR,
        "_omittedEntries": {"type": "integer", "minimum": 0,
                            "description": "tagcrawl: entries left out because the document reached "
                                           "`HAR_MAX_BYTES`."}}, "The log: who wrote it, its pages and entries."),
    "HarCreator": _obj(["name", "version"], {"name": _STR, "version": _STR, "comment": _STR},
                       "The application that wrote the log (or the browser)."),
    "HarPage": _obj(["startedDateTime", "id", "title", "pageTimings"], {
        "startedDateTime": _TIME, "id": {"type": "string", "description": "Referred to by entries' `pageref`."},
        "title": {"type": "string", "description": "tagcrawl: the crawled URL."},
        "pageTimings": _ref("HarPageTimings"), "comment": _STR}, "One page (tagcrawl writes one: `page_1`)."),
    "HarPageTimings": {"type": "object", "description": "Page load timings (ms, -1 when unknown).",
                       "properties": {"onContentLoad": _MS, "onLoad": _MS, "comment": _STR}},
    "HarEntry": _obj(["startedDateTime", "time", "request", "response", "cache", "timings"], {
        "pageref": _STR, "startedDateTime": _TIME, "time": {"type": "number", "description": "Milliseconds."},
        "request": _ref("HarRequest"), "response": _ref("HarResponse"), "cache": _ref("HarCache"),
        "timings": _ref("HarTimings"), "serverIPAddress": _STR, "connection": _STR, "comment": _STR,
        "_frameUrl": {"type": ["string", "null"], "description": "tagcrawl: the document or worker that sent it."},
        "_resourceType": {"type": ["string", "null"],
                          "description": "Chrome's resource type (`document`, `script`, `xhr`, `ping`, ...)."}},
        "One request and its response."),
    "HarRequest": _obj(["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize",
                        "bodySize"], {
        "method": _STR, "url": _STR, "httpVersion": _STR,
        "cookies": {"type": "array", "items": _ref("HarCookie")},
        "headers": {"type": "array", "items": _ref("HarNameValue")},
        "queryString": {"type": "array", "items": _ref("HarNameValue")},
        "postData": _ref("HarPostData"), "headersSize": _SIZE, "bodySize": _SIZE, "comment": _STR},
        "The request as sent (sensitive headers redacted: docs/har.md)."),
    "HarResponse": _obj(["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL",
                         "headersSize", "bodySize"], {
        "status": {"type": "integer", "description": "0 when unknown."}, "statusText": _STR, "httpVersion": _STR,
        "cookies": {"type": "array", "items": _ref("HarCookie")},
        "headers": {"type": "array", "items": _ref("HarNameValue")},
        "content": _ref("HarContent"), "redirectURL": _STR, "headersSize": _SIZE, "bodySize": _SIZE,
        "comment": _STR}, "The response (tagcrawl captures its status when known, never its body)."),
    "HarNameValue": _obj(["name", "value"], {"name": _STR, "value": _STR, "comment": _STR},
                         "A header or query string parameter."),
    "HarCookie": _obj(["name", "value"], {
        "name": _STR, "value": _STR, "path": _STR, "domain": _STR, "expires": _TIME, "httpOnly": {"type": "boolean"},
        "secure": {"type": "boolean"}, "comment": _STR}, "A cookie."),
    "HarPostData": _obj(["mimeType"], {
        "mimeType": _STR, "text": _STR, "params": {"type": "array", "items": _ref("HarParam")}, "comment": _STR,
        "encoding": {"type": "string", "description": "`base64` when `text` is base64 (a binary body)."},
        "_decodedFrom": {"type": "string", "description": "tagcrawl: the Content-Encoding undone (`gzip`, ...)."},
        "_truncated": {"type": "boolean", "description": "tagcrawl: the body was cut at `HAR_BODY_MAX_BYTES`."}},
        "The request body (tagcrawl: decoded; docs/har.md)."),
    "HarParam": _obj(["name"], {"name": _STR, "value": _STR, "fileName": _STR, "contentType": _STR, "comment": _STR},
                     "A posted form parameter."),
    "HarContent": _obj(["size", "mimeType"], {
        "size": _INT, "compression": _INT, "mimeType": _STR, "text": _STR, "encoding": _STR, "comment": _STR},
        "The response body's description."),
    "HarCache": {"type": "object", "description": "Cache state (tagcrawl writes `{}`).", "properties": {
        "beforeRequest": _ref("HarCacheState"), "afterRequest": _ref("HarCacheState"), "comment": _STR}},
    "HarCacheState": _obj(["lastAccess", "eTag", "hitCount"], {
        "expires": _STR, "lastAccess": _STR, "eTag": _STR, "hitCount": _INT, "comment": _STR},
        "A cache entry's state."),
    "HarTimings": _obj(["send", "wait", "receive"], {
        "blocked": _MS, "dns": _MS, "connect": _MS, "send": _MS, "wait": _MS, "receive": _MS, "ssl": _MS,
        "comment": _STR}, "Timings of the request's phases (ms)."),
}
