import pytest

from newscorpus.crawler.site_config import SiteConfigError, adhoc_site_config, load_site_config


def write(tmp_path, text):
    path = tmp_path / "mysite.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_loads_a_config_by_path_and_by_name(tmp_path):
    write(tmp_path, 'name = "mysite"\nstart_urls = ["https://news.example.com/"]\n'
                    'article_patterns = ["/\\\\d{4}/"]\nmax_pages = 100\n')
    by_path = load_site_config(str(tmp_path / "mysite.toml"))
    by_name = load_site_config("mysite", [str(tmp_path)])
    assert by_path == by_name
    assert by_path.domains == ("news.example.com",)
    assert by_path.max_pages == 100
    assert by_path.patterns("article_patterns")[0].search("/2026/")


def test_packaged_configs_load():
    assert load_site_config("demo").name == "demo"


@pytest.mark.parametrize("text, message", [
    ('start_urls = ["https://a.example/"]', "missing field 'name'"),
    ('name = "x"', "at least one of start_urls"),
    ('name = "x"\nstart_urls = ["file:///etc/passwd"]', r"not an http\(s\) URL"),
    ('name = "x"\nstart_urls = ["https://a.example/"]\narticle_patterns = ["("]', "bad regex in article_patterns"),
    ('name = "x"\nstart_urls = ["https://a.example/"]\nmax_pages = -1', "max_pages must be"),
    ('name = "x"\nstart_urls = ["https://a.example/"]\nstart_url = "typo"', "unknown field"),
    ('name = "x"\nstart_urls = ["https://a.example/"', "not valid TOML"),
    # wrong types are reported, not guessed from (read loosely, the string "false" would turn the private-address
    # guard off, follow_links = "no" would still follow, max_depth = true would become 1)
    ('name = "x"\nstart_urls = ["https://a.example/"]\nallow_private_addresses = "false"',
     "allow_private_addresses must be true or false, not 'false' \\(a string\\)"),
    ('name = "x"\nstart_urls = ["https://a.example/"]\nfollow_links = "no"', "follow_links must be true or false"),
    ('name = "x"\nstart_urls = ["https://a.example/"]\nmax_depth = true',
     "max_depth must be a whole number, not True \\(a boolean\\)"),
    ('name = "x"\nstart_urls = ["https://a.example/"]\nmax_pages = 2.5', "max_pages must be a whole number"),
    ('name = "x"\nstart_urls = ["https://a.example/"]\nallowed_domains = [1]', "allowed_domains must be a list"),
    ('name = "x"\nstart_urls = ["https://a.example/"]\nallowed_ports = ["8080"]', "allowed_ports must be a list"),
    ('name = "x"\nstart_urls = ["https://a.example/"]\nallowed_ports = [70000]', "allowed_ports must hold"),
    ('name = 7\nstart_urls = ["https://a.example/"]', "name must be a string"),
])
def test_bad_configs_name_the_problem(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(SiteConfigError, match=message) as error:
        load_site_config(str(path))
    assert str(path) in str(error.value)


def test_missing_config_lists_where_it_looked(tmp_path):
    with pytest.raises(SiteConfigError, match="no site config 'nosuchsite'.*nosuchsite.toml"):
        load_site_config("nosuchsite", [str(tmp_path)])


def test_adhoc_config_stays_on_the_host():
    config = adhoc_site_config("https://www.example.com/news/")
    assert config.name == "example.com"
    assert config.domains == ("www.example.com",)
    with pytest.raises(SiteConfigError):
        adhoc_site_config("not a url")


def test_adhoc_site_name_keeps_a_non_default_port():
    """Two local sites on two ports are two sites."""
    assert adhoc_site_config("http://127.0.0.1:8765/").name == "127.0.0.1-8765"
    assert adhoc_site_config("http://127.0.0.1:8766/").name == "127.0.0.1-8766"
    assert adhoc_site_config("https://www.example.com:443/news/").name == "example.com"
    assert adhoc_site_config("http://example.com:80/").name == "example.com"


def test_ports_are_those_of_the_configured_urls(tmp_path):
    assert adhoc_site_config("http://127.0.0.1:8765/").ports == {8765}
    assert adhoc_site_config("https://example.com/").ports == {80, 443}    # http and https defaults go together
    path = write(tmp_path, 'name = "p"\nstart_urls = ["https://a.example/"]\nallowed_ports = [8080]\n')
    assert load_site_config(str(path)).ports == {80, 443, 8080}


def test_the_spider_arguments_are_one_site_or_one_url():
    from newscorpus.crawler.spiders.site import site_config_of

    with pytest.raises(SiteConfigError, match="give either -a site=NAME or -a url=URL, not both"):
        site_config_of("demo", "http://example.com/", [])
    with pytest.raises(SiteConfigError, match="the site spider needs -a site=NAME"):
        site_config_of(None, None, [])
    assert site_config_of(None, "http://example.com/", []).domains


def test_the_crawl_command_says_what_the_spider_would_in_one_line():
    from tests.local_crawl import run_crawl

    result = run_crawl(None, settings={"LOG_LEVEL": "WARNING"}, timeout=60)
    assert result.returncode == 2
    assert result.stderr == ("scrapy crawl site: error: the site spider needs -a site=NAME "
                             "(newscorpus/crawler/sites/NAME.toml) or -a url=URL\n")
