"""Site-aware extraction state in Postgres (queries in store/sql/site_aware.sql): load a site's templates and
reference skeletons into a `SiteAwareExtractor`, save them back with hit/repair counts added as deltas."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from psycopg.types.json import Jsonb

from newscorpus.core.site_aware.cascade import SiteAwareExtractor
from newscorpus.core.site_aware.skeleton import Skeleton
from newscorpus.core.site_aware.templates import SiteTemplate
from newscorpus.store.connection import connect
from newscorpus.store.sql import query

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TemplateRow:
    site: str
    page_type: str
    url: str
    source: str
    hits: int
    repairs: int
    template: SiteTemplate
    updated_at: object


class SiteTemplateStore:
    """Blocking calls (the stage runs them in a thread). Remembers the counts it loaded, so a save writes
    only what this process added."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._loaded: dict[tuple[str, str, str], tuple[int, int]] = {}

    def load(self, extractor: SiteAwareExtractor, site: str) -> int:
        """Put `site`'s stored templates and skeletons into the extractor; returns the templates loaded."""
        state = extractor.state(site)
        known = {(t.page_type, t.url) for t in state.templates}
        loaded = 0
        with connect(self.dsn) as connection:
            for data, hits, repairs in connection.execute(query("site_aware.load_site_templates"), {"site": site}):
                template = SiteTemplate.from_dict(data)
                template.hits, template.repairs = int(hits), int(repairs)
                self._loaded[(site, template.page_type, template.url)] = (template.hits, template.repairs)
                if (template.page_type, template.url) not in known:
                    state.templates.append(template)
                    loaded += 1
            clusters: dict[int, list[Skeleton]] = {}
            for cluster, _position, data in connection.execute(query("site_aware.load_site_skeletons"), {"site": site}):
                clusters.setdefault(cluster, []).append(Skeleton.from_json(data))
        if clusters and not state.clusters:
            state.clusters = [clusters[key] for key in sorted(clusters)]
        return loaded

    def save(self, extractor: SiteAwareExtractor) -> int:
        """Upsert every site's templates (counts as deltas since load) and skeletons, delete the ones dropped;
        returns templates saved."""
        saved = 0
        with connect(self.dsn) as connection, connection.transaction():
            for site, state in extractor.sites.items():
                for template in state.dropped:  # it stopped agreeing with the pages: not loaded again
                    connection.execute(query("site_aware.delete_site_template"),
                                       {"site": site, "page_type": template.page_type, "url": template.url})
                    self._loaded.pop((site, template.page_type, template.url), None)
                state.dropped.clear()
                for template in state.templates:
                    key = (site, template.page_type, template.url)
                    hits0, repairs0 = self._loaded.get(key, (0, 0))
                    data = template.to_dict()
                    connection.execute(
                        query("site_aware.upsert_site_template"),
                        {
                            "site": site,
                            "page_type": template.page_type,
                            "url": template.url,
                            "template": Jsonb(data),
                            "source": template.source,
                            "hits": template.hits - hits0,
                            "repairs": template.repairs - repairs0,
                        },
                    )
                    self._loaded[key] = (template.hits, template.repairs)
                    saved += 1
                for cluster, members in enumerate(state.clusters):
                    for position, skeleton in enumerate(members):
                        connection.execute(
                            query("site_aware.upsert_site_skeleton"),
                            {
                                "site": site,
                                "cluster": cluster,
                                "position": position,
                                "skeleton": Jsonb(skeleton.to_json()),
                                "nodes": skeleton.size(),
                            },
                        )
        return saved

    def has_templates(self, site: str) -> bool:
        """Some template is stored under ``site`` (a host without www.)."""
        with connect(self.dsn) as connection:
            return connection.execute(query("site_aware.has_site_templates"), {"site": site}).fetchone() is not None

    def list(self, site: str | None = None) -> list[TemplateRow]:
        with connect(self.dsn) as connection:
            rows = connection.execute(query("site_aware.list_site_templates"), {"site": site}).fetchall()
        return [
            TemplateRow(s, page_type, url, source, int(hits), int(repairs), SiteTemplate.from_dict(data), updated)
            for s, page_type, url, source, hits, repairs, data, updated in rows
        ]
