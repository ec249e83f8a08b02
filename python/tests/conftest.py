"""Shared fixtures: the chaff binary (CHAFF_BIN, else the repo's release or debug build) and the sample
corpora's rules mined by `chaff mine --all`, once per session."""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample-corpora"


def find_binary() -> pathlib.Path | None:
    if os.environ.get("CHAFF_BIN"):
        return pathlib.Path(os.environ["CHAFF_BIN"])
    for profile in ("release", "debug"):
        p = REPO / "target" / profile / "chaff"
        if p.exists():
            return p
    return None


@pytest.fixture(scope="session")
def chaff_bin() -> pathlib.Path:
    b = find_binary()
    if b is None:
        pytest.skip("no chaff binary: run `cargo build --release` or set CHAFF_BIN")
    return b


@pytest.fixture(scope="session")
def mined(chaff_bin, tmp_path_factory) -> pathlib.Path:
    """The rules folder `chaff mine --all sample-corpora` writes."""
    rules = tmp_path_factory.mktemp("rules")
    subprocess.run(
        [chaff_bin, "mine", "--all", SAMPLES, "--rules-dir", rules],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return rules


def sources() -> list[pathlib.Path]:
    return sorted(p for p in SAMPLES.iterdir() if p.is_dir())


def documents(folder: pathlib.Path) -> list[pathlib.Path]:
    """The documents of a source folder, in the order chaff reads them."""
    return sorted(
        p
        for p in folder.iterdir()
        if p.suffix in (".txt", ".html") and not p.name.endswith(".gold.txt") and ".template." not in p.name
    )
