-- Site-aware extraction (issue 5): per-site templates (research base 001: per field an XPath queue and search
-- rules, repaired in place) with hit and repair counts, and a few reference skeletons per structure cluster
-- (research base 003: the siblings DeleteSame compares a page with). Sites are hosts without "www.".

CREATE TABLE site_templates (
    id          bigserial PRIMARY KEY,
    site        text NOT NULL,                    -- pipelines.core.site_aware.url_similarity.site_of
    page_type   text NOT NULL DEFAULT 'article',
    url         text NOT NULL,                    -- example page: pages match by URL similarity
    template    jsonb NOT NULL,                   -- SiteTemplate.to_dict(): fields, XPath queues, rules
    source      text NOT NULL DEFAULT 'induced',  -- induced, config
    hits        bigint NOT NULL DEFAULT 0,        -- pages extracted by the template
    repairs     bigint NOT NULL DEFAULT 0,        -- XPaths appended by search-rule repair
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (site, page_type, url)
);

-- A skeleton is a page's element tree as two 48-bit hashes per node (~40 KB of JSON for 2,000 elements).
CREATE TABLE site_skeletons (
    site        text NOT NULL,
    cluster     integer NOT NULL,                 -- 0.. per site
    position    integer NOT NULL,                 -- 0.. references kept per cluster
    skeleton    jsonb NOT NULL,                   -- Skeleton.to_json()
    nodes       integer NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (site, cluster, position)
);
