-- Site-aware extraction state (migration 0005): templates with hit/repair counts, reference skeletons.

-- name: load_site_templates
SELECT template, hits, repairs FROM site_templates WHERE site = %(site)s ORDER BY id;

-- name: list_site_templates
SELECT site, page_type, url, source, hits, repairs, template, updated_at
FROM site_templates
WHERE %(site)s::text IS NULL OR site = %(site)s
ORDER BY site, page_type, id;

-- Counts are added as deltas, so several crawl processes of one site do not overwrite each other's.
-- name: upsert_site_template
INSERT INTO site_templates (site, page_type, url, template, source, hits, repairs)
VALUES (%(site)s, %(page_type)s, %(url)s, %(template)s, %(source)s, %(hits)s, %(repairs)s)
ON CONFLICT (site, page_type, url) DO UPDATE
SET template = EXCLUDED.template,
    hits = site_templates.hits + EXCLUDED.hits,
    repairs = site_templates.repairs + EXCLUDED.repairs,
    updated_at = now();

-- A template dropped by the cascade (it disagreed with the pages' own evidence).
-- name: delete_site_template
DELETE FROM site_templates WHERE site = %(site)s AND page_type = %(page_type)s AND url = %(url)s;

-- name: load_site_skeletons
SELECT cluster, position, skeleton FROM site_skeletons WHERE site = %(site)s ORDER BY cluster, position;

-- name: upsert_site_skeleton
INSERT INTO site_skeletons (site, cluster, position, skeleton, nodes)
VALUES (%(site)s, %(cluster)s, %(position)s, %(skeleton)s, %(nodes)s)
ON CONFLICT (site, cluster, position) DO UPDATE
SET skeleton = EXCLUDED.skeleton, nodes = EXCLUDED.nodes, updated_at = now();

-- name: has_site_templates
SELECT 1 FROM site_templates WHERE site = %(site)s LIMIT 1;
