"""One URL per page: the fragment, tracking parameters, session ids and reply links are dropped before a URL
is requested, so that `?replytocom=N` (WordPress), `?utm_source=...` or `;jsessionid=...` copies of a page are
not fetched and stored again (a blog's reply links alone make several copies of each post)."""

from __future__ import annotations

import re
from urllib.parse import unquote_plus, urlsplit, urlunsplit

# Query parameters that never change a page's content: campaign tracking (Google's utm_*, Facebook's fbclid,
# Google Ads' gclid/dclid, Microsoft's msclkid, Mailchimp's mc_cid/mc_eid, Yandex's yclid), sharing and reply
# links (WordPress replytocom and share), session ids (PHP, Java, ASP, generic; not `sid`, which some
# sites use for a story id).
DROPPED_PARAMETERS = re.compile(
    r"^(?:utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|yclid|replytocom|share|phpsessid|jsessionid"
    r"|aspsessionid\w*|sessionid|session_id)$",
    re.IGNORECASE,
)
# A session id written into the path (`/page.jsp;jsessionid=1A2B`).
PATH_SESSION = re.compile(r";(?:jsessionid|phpsessid|sessionid|sid)=[^/?#]*", re.IGNORECASE)


def canonical_url(url: str) -> str:
    """``url`` without its fragment, dropped parameters and path session ids; the other parameters are kept as
    written, in their order."""
    parts = urlsplit(url)
    kept = [pair for pair in parts.query.split("&")
            if pair and not DROPPED_PARAMETERS.match(unquote_plus(pair.split("=", 1)[0]))]
    return urlunsplit((parts.scheme, parts.netloc, PATH_SESSION.sub("", parts.path), "&".join(kept), ""))
