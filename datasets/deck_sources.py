"""Where the real deck artwork comes from: the packages, the decks in them, and fetching them.

Packages are fetched with the registries' own clients (``apt-get download`` + ``dpkg-deb -x``,
``npm pack`` + tar) into ``<cache>/sources/<package>/``, never installed system-wide. Each
unpacked package gets a ``source.json`` recording its version, so that a deck can say exactly
where it came from. See ``datasets/SOURCES.md`` for which decks are used and why others are not.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

_SUIT_WORDS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
_RANK_WORDS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}


@dataclass(frozen=True)
class SourcePackage:
    """A package in a registry that holds deck artwork."""

    name: str
    registry: str  # "apt" or "npm"


@dataclass(frozen=True)
class SvgDeckSpec:
    """One deck inside a fetched package.

    ``layout`` says how a card is found: ``"suit_rank"`` / ``"rank_suit"`` (one SVG, an element
    id per card such as ``club_1``, ``heart_king`` / ``1_club``, ``king_heart``), ``"files"``
    (a directory with one SVG per card, named by the card code with ``10`` for tens) or
    ``"codes"`` (the same, named by the engine's code: ``TS.svg``).
    ``corners`` is how many corners carry an index: 2 (top-left, bottom-right) or 4.
    ``symbol_widths``: the artwork sizes its ``<use>`` of a ``<symbol>`` by height alone, as
    browsers allow; cairosvg then draws the symbol a page wide, so each such use is given the
    width its symbol's viewBox implies (:meth:`datasets.svg_render.SvgSheet.size_symbol_uses`).
    """

    name: str
    package: str
    path: str  # inside the unpacked package
    layout: str
    licence: str
    corners: int = 2
    symbol_widths: bool = False

    def card_ref(self, code: str) -> str:
        """The element id (or file name) of the card ``code``.

        >>> SvgDeckSpec("x", "p", "x.svg", "suit_rank", "MIT").card_ref("QH")
        'heart_queen'
        >>> SvgDeckSpec("x", "p", "cards", "files", "MIT").card_ref("TS")
        '10S.svg'
        >>> SvgDeckSpec("x", "p", "cards", "codes", "MIT").card_ref("TS")
        'TS.svg'
        """
        rank, suit = code[0], code[1]
        if self.layout == "codes":
            return f"{code}.svg"
        if self.layout == "files":
            return f"{'10' if rank == 'T' else rank}{suit}.svg"
        rank_word = _RANK_WORDS.get(rank, rank)
        if self.layout == "suit_rank":
            return f"{_SUIT_WORDS[suit]}_{rank_word}"
        if self.layout == "rank_suit":
            return f"{rank_word}_{_SUIT_WORDS[suit]}"
        raise ValueError(f"unknown layout {self.layout!r}")


# Adrian Kennard's decks (www.me.uk/cards, CC0), one SVG per card, as packed by this npm package
# (its MIT licence covers its React code; its README: "Cards downloaded from
# https://www.me.uk/cards/ and distributed under CC0 license").
KENNARD_PACKAGE = "@heruka_urgyen/react-playing-cards"
_KENNARD = "package/src/images"
_KENNARD_LICENCE = "CC0-1.0 (Adrian Kennard, www.me.uk/cards; the package's README)"

PACKAGES = {
    p.name: p
    for p in (
        SourcePackage("svg-cards", "npm"),
        SourcePackage("cardsJS", "npm"),
        SourcePackage("gnome-cards-data", "apt"),
        SourcePackage("kdegames-card-data-kf5", "apt"),
        SourcePackage(KENNARD_PACKAGE, "npm"),
    )
}

_GNOME = "usr/share/aisleriot/cards"
_KDE = "usr/share/carddecks"
_AISLERIOT = "GPL-3.0+"  # debian/copyright of aisleriot: every file not otherwise marked
_KDEGAMES = "GPL-2.0+"  # debian/copyright of libkdegames: every file not otherwise marked
# The decks used, and their artwork's licences: svg-cards' package.json; cardsJS' cards/readme.txt
# (Chris Aguilar's Vectorized Playing Cards 1.3, not the package's MIT code licence); the notice
# inside the SVG where there is one; else the Debian package's copyright file. datasets/SOURCES.md
# lists the decks left out and why.
SVG_DECKS: tuple[SvgDeckSpec, ...] = (
    SvgDeckSpec("svg-cards", "svg-cards", "package/svg-cards.svg", "suit_rank", "LGPL-2.1+"),
    SvgDeckSpec("cardsjs", "cardsJS", "package/cards", "files", "LGPL-3.0+"),
    SvgDeckSpec("gnome-anglo", "gnome-cards-data", f"{_GNOME}/anglo.svgz", "suit_rank", _AISLERIOT),
    SvgDeckSpec("gnome-anglo-modern", "gnome-cards-data", f"{_GNOME}/anglo_modern.svgz", "suit_rank", _AISLERIOT),
    SvgDeckSpec(
        "gnome-anglo-modern-4-color", "gnome-cards-data", f"{_GNOME}/anglo_modern_4_color.svgz", "suit_rank",
        _AISLERIOT,
    ),
    SvgDeckSpec("gnome-anglo-poker", "gnome-cards-data", f"{_GNOME}/anglo_poker.svgz", "suit_rank", _AISLERIOT),
    SvgDeckSpec("gnome-atlasnye", "gnome-cards-data", f"{_GNOME}/atlasnye.svgz", "suit_rank", _AISLERIOT),
    SvgDeckSpec("gnome-dondorf", "gnome-cards-data", f"{_GNOME}/dondorf.svgz", "suit_rank", _AISLERIOT, corners=4),
    SvgDeckSpec("gnome-neoclassical", "gnome-cards-data", f"{_GNOME}/neoclassical.svgz", "suit_rank", _AISLERIOT),
    SvgDeckSpec(
        "gnome-neoclassical-4-color", "gnome-cards-data", f"{_GNOME}/neoclassical_4_color.svgz", "suit_rank",
        _AISLERIOT,
    ),
    SvgDeckSpec("gnome-orell", "gnome-cards-data", f"{_GNOME}/orell.svgz", "suit_rank", _AISLERIOT),
    SvgDeckSpec(
        "gnome-ornamental", "gnome-cards-data", f"{_GNOME}/ornamental.svgz", "suit_rank",
        "Public domain (Nicu Buculei, per the SVG's metadata)",
    ),
    SvgDeckSpec("gnome-plastic", "gnome-cards-data", f"{_GNOME}/plastic.svgz", "suit_rank", _AISLERIOT),
    SvgDeckSpec("gnome-simplistic", "gnome-cards-data", f"{_GNOME}/simplistic.svgz", "suit_rank", _AISLERIOT),
    SvgDeckSpec("gnome-tigullio", "gnome-cards-data", f"{_GNOME}/tigullio.svgz", "suit_rank", "LGPL-3.0+"),
    SvgDeckSpec(
        "kde-standard", "kdegames-card-data-kf5", f"{_KDE}/svg-standard/standard.svgz", "rank_suit", _KDEGAMES
    ),
    SvgDeckSpec(
        "kde-tigullio-international", "kdegames-card-data-kf5",
        f"{_KDE}/svg-tigullio-international/tigullio-international.svgz", "rank_suit", "LGPL-2.0+",
    ),
    SvgDeckSpec(
        "kde-penguins", "kdegames-card-data-kf5", f"{_KDE}/svg-penguins/penguins.svgz", "rank_suit", "GPL-3.0+"
    ),
    SvgDeckSpec(
        "kde-nicu-white", "kdegames-card-data-kf5", f"{_KDE}/svg-nicu-white/white.svgz", "rank_suit", _KDEGAMES
    ),
    SvgDeckSpec("kennard", KENNARD_PACKAGE, f"{_KENNARD}/2color", "codes", _KENNARD_LICENCE, symbol_widths=True),
    SvgDeckSpec(
        "kennard-big", KENNARD_PACKAGE, f"{_KENNARD}/2color-bf", "codes", _KENNARD_LICENCE, symbol_widths=True
    ),
    SvgDeckSpec(
        "kennard-big-4-color", KENNARD_PACKAGE, f"{_KENNARD}/4color-bf", "codes", _KENNARD_LICENCE,
        symbol_widths=True,
    ),
)
DECK_SPECS = {spec.name: spec for spec in SVG_DECKS}


def package_dir(cache_dir: Path, package: str) -> Path:
    return cache_dir / "sources" / package


def package_info(cache_dir: Path, package: str) -> dict[str, str] | None:
    """The ``source.json`` of a fetched package, or None when it has not been fetched."""
    info = package_dir(cache_dir, package) / "source.json"
    return json.loads(info.read_text()) if info.exists() else None


def _run(cmd: list[str], cwd: Path, quiet: bool) -> str:
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if not quiet and result.stderr:
        print(result.stderr.strip())
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({result.returncode}): {result.stderr.strip()[-500:]}")
    return result.stdout


def _fetch_npm(package: str, work: Path, dest: Path, quiet: bool) -> str:
    out = _run(["npm", "pack", package, "--json"], work, quiet)
    meta = json.loads(out)[0]
    with tarfile.open(work / meta["filename"]) as tar:
        if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4: refuse links and paths out of dest
            tar.extractall(dest, filter="data")
        else:  # pragma: no cover - older 3.11
            tar.extractall(dest)  # a package from the npm registry, not user input
    return meta["version"]


def _fetch_apt(package: str, work: Path, dest: Path, quiet: bool) -> str:
    try:
        _run(["apt-get", "download", package], work, quiet)
    except RuntimeError:
        # An empty or stale package list: refresh it (needs root) and try once more.
        _run(["apt-get", "update"], work, quiet)
        _run(["apt-get", "download", package], work, quiet)
    debs = sorted(work.glob(f"{package}_*.deb"))
    if not debs:
        raise RuntimeError(f"apt-get download {package} produced no .deb")
    _run(["dpkg-deb", "-x", str(debs[0]), str(dest)], work, quiet)
    return _run(["dpkg-deb", "-f", str(debs[0]), "Version"], work, quiet).strip()


def fetch_package(cache_dir: Path, package: str, quiet: bool = True) -> dict[str, str]:
    """Download and unpack ``package`` into the cache unless it is there already."""
    info = package_info(cache_dir, package)
    if info is not None:
        return info
    registry = PACKAGES[package].registry
    dest = package_dir(cache_dir, package)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        staging = work / "unpacked"
        staging.mkdir()
        fetch = _fetch_npm if registry == "npm" else _fetch_apt
        version = fetch(package, work, staging, quiet)
        info = {"package": package, "registry": registry, "version": version}
        (staging / "source.json").write_text(json.dumps(info, indent=2) + "\n")
        if dest.exists():
            shutil.rmtree(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staging), dest)  # only a complete unpack gets the final name
    if not quiet:
        print(f"fetched {package} {version} ({registry}) into {dest}")
    return info
