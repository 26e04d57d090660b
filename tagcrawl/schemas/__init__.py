"""marshmallow schemas for every resource of spec.md section 2, and more.

Shared by the ``crawl`` and ``stream`` blueprints and by the OpenAPI document.
Load schemas validate request bodies; the response schemas document (and dump)
what the service returns.  Error messages carry their ``type`` code (``coded.py``).
"""

from .common import *  # noqa: F401,F403
from .coded import Coded, CodedSchema  # noqa: F401
from .crawl import *  # noqa: F401,F403
from .responses import *  # noqa: F401,F403
from .stream import *  # noqa: F401,F403
from .queries import *  # noqa: F401,F403
