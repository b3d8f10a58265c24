#!/usr/bin/env python3
"""Downloads the source distributions of exact package versions from the package index, checked by the sha256 the index
gives; no build backend runs (pip download --no-binary prepares each sdist's metadata, building its build backend from
source first: minutes of CPU for files of which only the examples are read).

usage: fetch-sdist.py DIR NAME==VERSION...   (the index is PIP_INDEX_URL when set, else PyPI's simple index)
"""
import hashlib
import os
import re
import sys
import urllib.parse
import urllib.request


def sdist_link(index: str, name: str, version: str) -> tuple[str, str]:
    """The URL and sha256 of the sdist of name==version, from the index's project page (PEP 503)."""
    normalized = re.sub(r"[-_.]+", "-", name).lower()
    page_url = f"{index.rstrip('/')}/{normalized}/"
    page = urllib.request.urlopen(page_url, timeout=60).read().decode()
    wanted = re.sub(r"[-_.]+", "_", f"{name}-{version}.tar.gz").lower()
    for href in re.findall(r'href="([^"]+)"', page):
        path, _, fragment = urllib.parse.urljoin(page_url, href.replace("&amp;", "&")).partition("#")
        filename = path.rsplit("/", 1)[-1]
        if re.sub(r"[-_.]+", "_", filename).lower() == wanted and fragment.startswith("sha256="):
            return path, fragment[len("sha256="):]
    raise SystemExit(f"fetch-sdist: no sdist of {name} {version} with a sha256 on {page_url}")


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    target = sys.argv[1]
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple")
    os.makedirs(target, exist_ok=True)
    for requirement in sys.argv[2:]:
        name, _, version = requirement.partition("==")
        url, sha256 = sdist_link(index, name, version)
        data = urllib.request.urlopen(url, timeout=180).read()
        if hashlib.sha256(data).hexdigest() != sha256:
            raise SystemExit(f"fetch-sdist: {url} does not match the index's sha256")
        with open(os.path.join(target, url.rsplit("/", 1)[-1]), "wb") as out:
            out.write(data)


main()
