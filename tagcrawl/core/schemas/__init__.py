"""marshmallow schemas for every resource of the API (docs/api.md), crawl, stream and the rest.

Shared by the ``crawl`` and ``stream`` blueprints and by the OpenAPI document.
Load schemas validate request bodies; the response schemas document (and dump)
what the service returns.  Error messages carry their ``type`` code (``coded.py``).
"""

from tagcrawl.core.schemas.common import *  # noqa: F401,F403
from tagcrawl.core.schemas.coded import Coded, CodedSchema  # noqa: F401
from tagcrawl.core.schemas.crawl import *  # noqa: F401,F403
from tagcrawl.core.schemas.responses import *  # noqa: F401,F403
from tagcrawl.core.schemas.stream import *  # noqa: F401,F403
from tagcrawl.core.schemas.queries import *  # noqa: F401,F403
