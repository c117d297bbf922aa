import pytest

from newscorpus.crawler.scope import host_in_domains, is_internal_address


@pytest.mark.parametrize("address", [
    "127.0.0.1", "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254", "0.0.0.0", "::1", "fe80::1%eth0",
    "fc00::5", "::ffff:127.0.0.1", "100.64.0.1", "224.0.0.1",
])
def test_internal_addresses(address):
    assert is_internal_address(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])
def test_public_addresses(address):
    assert not is_internal_address(address)


def test_host_in_domains_takes_subdomains_not_lookalikes():
    domains = ("example.com",)
    assert host_in_domains("example.com", domains)
    assert host_in_domains("news.Example.com.", domains)
    assert not host_in_domains("badexample.com", domains)
    assert not host_in_domains("example.com.evil.net", domains)
