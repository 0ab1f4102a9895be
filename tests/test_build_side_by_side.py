"""A build's products drawn side by side, in this process and a forked copy (generators/build.py): the same
documents, byte for byte and in the same order, as drawn one after another; a refusal as one by one, with
nothing written; a copy that fails or dies leaves its products to this process."""

from __future__ import annotations

import os
import time

import pytest

import generators.build as build
from generators.build import build_all, make_options
from generators.core.errors import DossierError
from generators.printing.settings import PrintSettings

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="products are drawn side by side only where fork is")


def _jobs(game, out, only=()):
    return [(game, PrintSettings.resolve(make_options(out, only=only), game.layout))]


def _as_values(documents):
    return [(d.folder, d.files, d.stems, d.owns_folder, d.shares_folder) for d in documents]


def test_every_product_drawn_side_by_side_is_the_same_bytes_in_the_same_order_as_one_after_another(spies, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    jobs = _jobs(spies, tmp_path)
    one_by_one = build_all(jobs, cores=1)
    here = []
    side_by_side = build_all(jobs, lambda game, name: here.append(name), cores=2)
    assert _as_values(side_by_side) == _as_values(one_by_one)
    assert [p.name for d in side_by_side for p in d.paths()][:2] == ["counters.pdf", "tiles.pdf"]
    assert 0 < len(here) < len(build.PRODUCTS)  # the copy drew the others


def _failing(names, only_in_copy=False, how=None):
    """build.product, with the products `names` failing (in the forked copy only, when so said: this process then
    draws slowly, so that the copy surely takes some)."""
    real, parent = build.product, os.getpid()

    def product(name):
        def draw(game, settings):
            if name in names and (not only_in_copy or os.getpid() != parent):
                if how:
                    how()
                raise DossierError(f"{name} cannot be drawn")
            if only_in_copy:
                time.sleep(0.3)
            return real(name)(game, settings)
        return draw

    return product


@pytest.mark.parametrize("how", [None, lambda: os._exit(3)], ids=["fails", "dies"])
def test_products_the_copy_fails_at_or_dies_in_are_drawn_here(spies, tmp_path, monkeypatch, how):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    jobs = _jobs(spies, tmp_path, ("tiles", "cards", "player-aid"))
    one_by_one = build_all(jobs, cores=1)
    monkeypatch.setattr(build, "product", _failing({"tiles", "cards", "player-aid"}, only_in_copy=True, how=how))
    assert _as_values(build_all(jobs, cores=2)) == _as_values(one_by_one)


@pytest.mark.parametrize("failing", [{"cards"}, {"map"}, {"cards", "display"}, {"counters", "map"}])
def test_a_product_that_fails_is_refused_as_when_drawn_one_by_one_and_nothing_is_written(cli, here, monkeypatch, failing):
    monkeypatch.setattr(build, "product", _failing(failing))
    refusals = []
    for cores in (1, 2):
        monkeypatch.setattr(build, "usable_cores", lambda: cores)
        refusals.append(cli("build", "--game", "spies", "--out", here / "out"))
        assert refusals[-1].code == 2 and not (here / "out").exists()
    assert refusals[0] == refusals[1]
    first = min(failing, key=list(build.PRODUCTS).index)
    assert f"{first} cannot be drawn" in refusals[1].stderr and "Traceback" not in refusals[1].stderr
