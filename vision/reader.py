"""The card reader: photo -> the cards in view, each with its confidence and index boxes.

Two stages, both trained on synthetic photos only (see ``models/MODEL_CARD.md``):
a YOLO detector finds corner indices (one class), then a small CNN reads each index from
a small square colour crop (52 cards, or "no index"); where a weights folder has one, a suit
reader gives the black suit of the indices read as spades or clubs (``vision.suits``), and in a
black-and-white photo a grey-photo suit reader gives every index's suit (a suit reader trained
on upright crops is given its crops turned upright by the way-up reader's angle). The two
indices of one card make one card; a deck holds each card once, so of two indices of one code
far apart the weaker is another card misread: it is read again as its suit twin (the same rank
in the other suit of its colour), flagged, or dropped. So is one nearer that faces the same way
(a card's two indices face opposite ways), as the way-up reader (``way_up.onnx``) reads it.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import json
import math
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from engine.cards import CODES
from vision.crops import MARGIN, crop_squares, half_turn_likeness, to_grey, turn_upright
from vision.evaluate import iou
from vision.image import is_grey, load_image, stretch
from vision.onnx import VOTES, ClassifierGroup, DetectorGroup, IndexClassifier, IndexDetector, WayUpReader
from vision.pips import NUMBER_RANKS, pip_votes
from vision.suits import RULES as SUIT_RULES
from vision.suits import apply_suit_reader
from vision.types import CardRead, Reading, WeightsError

ONE_DECK_RULES = ("any", "suit")  # see Settings.one_deck_rule and read_again
ASPECT_SCORES = ("sum", "mean")  # see Settings.aspects
WHEN_EMPTY = ("off", "looks", "zoomed")  # see Settings.aspect_when_empty
ASPECT_MERGES = ("best", "indices")  # see Settings.aspect_merge
NONE_CLASS = 52  # the classifier's "no index": its classes are the engine's 52 codes, then this
DEFAULT_WEIGHTS = Path(__file__).resolve().parent.parent / "models" / "weights"


@dataclass(frozen=True)
class Settings:
    """Thresholds of the reader (kept with the weights in ``reader.json``)."""

    # Detector boxes kept for reading. With session 33's detector 0.1, 0.125 and 0.2 move the
    # cards missed / wrong on 3,200 synthetic photos by +7 / +2, +9 / 0 and +15 / -7 from
    # 3,457 / 973 (models/weights/det-conf-session33.json): 0.15 kept. With session 34's
    # detector, from 3,377 / 1,030: 0.1 +2 / +10, 0.125 -3 / +4, 0.2 +12 / -2
    # (det-conf-session35.json): 0.15 kept.
    det_conf: float = 0.15
    # Boxes overlapping this much or more are one index (NMS, or det_fuse's groups). 0.4 and 0.6
    # are steps along min_card's curve, not a better one: on 800 synthetic photos each of synth2,
    # synth4, showdown23, unseen25, missed / wrong in all 0.5: 3472 / 1056, 0.4: +23 / -23,
    # 0.6: -39 / +40 (models/weights/det-iou-session31.json).
    det_iou: float = 0.5
    # The photo as it is, and halved for big close-up indices. Session 35, on 800 synthetic
    # validation photos each of synth2, synth4, showdown23 and unseen25 (benchmarks/
    # settings_sweep.py; min_card's own curve with (1.0, 0.5): 3,260 / 1,130, 3,377 / 1,030,
    # 3,510 / 936 missed / wrong at 0.48, 0.5, 0.52): (1.0, 0.75, 0.5) 15 fewer missed and 29
    # more wrong at 0.5, no better (det-scales-session35.json); a 1.25x look, with min_card
    # swept, a little better in colour but for much more time. (1.25, 1.0, 0.5) at 0.5, 0.52,
    # 0.54: 3,222 / 1,123, 3,349 / 1,025, 3,483 / 942, 20-40 fewer missed at as many wrong
    # (most at showdown; synth2 a little worse), black and white on the curve, held20 at 0.52
    # 132 / 29 v 134 / 24, for 1.94x the time (39.8 v 77.4 ms on 100 real-dev photos side by
    # side; det-scales-*-session35.json, speed-session35-det-scales.json). (1.25, 0.5): 3,287 /
    # 1,088, 3,408 / 995 at 0.5 and 0.52 (about 20 fewer missed), but black and white worse
    # (1,478 / 376 at 0.52 v 1,444 / 382 and 1,498 / 334 at 0.5 and 0.52) and held20 135 / 29,
    # for 1.35x (det-scales2-*-session35.json, speed-session35-det-scales2.json). Kept as is:
    # 1% fewer cards missed in colour is not worth twice the time against the 100 ms target.
    det_scales: tuple[float, ...] = (1.0, 0.5)
    # The photo looked at (at each of det_scales) also turned by these quarter turns
    # (anticlockwise), the boxes turned back before one NMS (vision.onnx.IndexDetector): the
    # detector finds some indices at one turn and not at another. Off ((0,)): on 800 synthetic
    # validation photos each (session 31, benchmarks/settings_sweep.py,
    # models/weights/det-turns-session31.json), cards missed / wrong, (0,) v (0, 1) v (0, 1, 2, 3):
    # synth2 559 / 166 v 500 / 192 v 475 / 240, synth4 611 / 203 v 579 / 236 v 546 / 263,
    # showdown23 1,605 / 407 v 1,545 / 460 v 1,507 / 511, unseen25 745 / 287 v 700 / 317 v
    # 691 / 366: more found and more wrong; against min_card's curve without turns (session 30)
    # at as many wrong cards, (0, 1) misses 31 fewer on synth2 and 23 fewer on unseen25 but 5 and
    # 48 more on synth4 and showdown23 (no better in all), (0, 1, 2, 3) 53 more in all; and a
    # turned look is one more full-scale detector run.
    det_turns: tuple[int, ...] = (0,)
    # With several det_turns, the first turn's boxes are kept as they are and a later turn adds
    # only boxes that overlap none of them (IoU under 0.3), kept from ``turned_min`` confidence on
    # (0: as any other index): the indices the first look finds are read as without turns. Off:
    # with it (models/weights/det-turns-new-session31.json), (0,) v (0, 1), missed / wrong synth2
    # 559 / 166 v 551 / 167, synth4 611 / 203 v 604 / 212, showdown23 1,605 / 407 v 1,599 / 421,
    # unseen25 745 / 287 v 740 / 288: 26 found for 25 wrong, so most of what a turn finds above
    # is the first look's indices boxed again and read otherwise, and what it adds is no better.
    turned_new_only: bool = False
    turned_min: float = 0.0
    # Boxes of one index (the detector's overlapping candidates, at every scale and turn) made one
    # by their mean weighted by score instead of NMS's best alone (vision.onnx.fuse_boxes): the
    # same indices, each boxed where all its candidates put it, so cut for the classifier more
    # nearly as the training crops are. On since session 31: on 800 synthetic validation photos
    # each (benchmarks/settings_sweep.py, models/weights/det-fuse-session31.json), cards missed /
    # wrong off v on: synth2 559 / 166 v 543 / 169, synth4 611 / 203 v 613 / 197, showdown23
    # 1,605 / 407 v 1,570 / 394, unseen25 745 / 287 v 746 / 296 (48 fewer missed and 7 fewer
    # wrong in all; the unseen decks 9 more wrong). min_card swept with it
    # (min-card-fuse-session31.json) against session 30's curve without it, at as many wrong
    # cards: showdown23 44-62 fewer missed, synth2 8-16 fewer, synth4 within 6, unseen25 4-7 more.
    # Checked after: held-up cards (held20, 300 photos) 142 / 35 v 138 / 33; black and white
    # synth2 740 / 174 v 722 / 180, synth4 811 / 213 v 811 / 201 (fuse-held-session31.json,
    # fuse-grey-session31.json); time 0.96x (speed-session31-fuse.json, noise).
    det_fuse: bool = True
    # A weights folder may hold more detectors beside ``detector.onnx`` (``detector2.onnx``,
    # ``detector3.onnx``, ...): then all are asked, their boxes of one index made one and scored
    # by their mean (vision.onnx.DetectorGroup; always fused, whatever det_fuse says).
    # ``det_members``: how many of them are asked, the first ones (1: ``detector.onnx`` alone);
    # 0 all there are. ``det_vote``: how a box's score is made of theirs (vision.onnx.fuse_boxes:
    # "mean" of all of them, a detector that found nothing there counting 0; "found", the mean
    # of those that found it; "max"). The shipped folder has one detector: no group of the
    # detectors at hand read better. Session 35 (benchmarks/settings_sweep.py --set det_members,
    # det_vote; 300 validation photos each of synth2 and showdown23, min_card 0.5,
    # models/weights/det-group-session35-*.json), cards missed / wrong, the shipped detector
    # alone 170 / 41 and 579 / 125; with session 33's beside it ("mean") 182 / 40 and 595 / 129
    # ("found" 180 / 42 and 594 / 129, "max" 176 / 44 and 580 / 133); with session 33's and
    # session 3's 180 / 38 and 600 / 124; with its own 33-minute continuation (session 34, not
    # shipped) 179 / 42 and 583 / 121: more missed each time, at most a few fewer wrong.
    det_members: int = 0
    det_vote: str = "mean"
    # When those looks read no index at all, look again at these scales: a card held up far from
    # a webcam has indices too small for the detector at full scale (a 2x look costs about four
    # full-scale ones, so only photos that read nothing pay it). () turns it off.
    zoom_scales: tuple[float, ...] = (2.0,)
    # That look is taken at each of these quarter turns of the photo too (vision.onnx.IndexDetector).
    # Off ((0,)): all four turns found 2 more cards of 993 in held20's 300 photos of held-up cards
    # (none more wrong; at zoom_scales 2, 1 and 0.5 the same) and on synth2's 800 none more and
    # one more wrong (models/weights/zoom-turns-*-session31.*), for four times the closer
    # look's cost on every photo that reads nothing (a webcam frame with no card in view).
    zoom_turns: tuple[int, ...] = (0,)
    # A photo whose indices read are small (their median side under ``small_side`` pixels: cards
    # far from the camera on a table) is read again with the detector also looking at
    # ``small_scales`` (with ``zoom`` only, as the closer look above). 0 turns it off. On since
    # session 36 at 30 px with a 1.25x look (below). A 2x look was off: on
    # 800 synthetic photos each (session 29, benchmarks/settings_sweep.py,
    # models/weights/small-look-session29.json), at 20 px cards missed / wrong unseen25 746 / 298
    # -> 719 / 317, showdown23 1,626 / 419 -> 1,587 / 425, synth2 569 / 172 -> 549 / 189, synth4
    # 616 / 210 -> 597 / 218: 105 more found, 50 more wrong, precision lower on every set (25
    # and 30 px: more of both). Nor a better curve with session 34's detector (session 35,
    # small-side-session35.json): at 20 px with min_card 0.5, 0.52, 0.54 in all 3,321 / 1,076,
    # 3,454 / 989, 3,587 / 912 against min_card's own 3,260 / 1,130, 3,377 / 1,030, 3,510 / 936
    # without it (at as many wrong, as many missed at 0.5 and about 20 and 40 more above).
    # A 1.25x look instead (small_scales (1.25,)), where the median side is under 30 or 40 px,
    # drew a better curve in colour (session 35, small-125-30-session35.json and
    # small-125-40-session35.json): at min_card 0.5 and 0.52, 3,255 / 1,097 and 3,395 / 997 (30
    # px), 3,235 / 1,112 and 3,379 / 1,010 (40 px), 26-46 fewer missed at as many wrong, about
    # as much as the 1.25x look on every photo (det_scales' comment) for less time. At 30 px
    # and min_card 0.52 against 0 px: held20 132 / 25 v 134 / 24 (128 / 32 shipped, at 0.5),
    # black and white synth2 + synth4 1,467 / 358 v 1,498 / 334 (1,444 / 382 at 0.5: on or a
    # little above min_card's curve), time 1.007x on 100 real-dev photos, whose indices are
    # seldom that small (small-125-held-session35.json, small-125-grey-session35.json,
    # speed-session35-small-125.json). It met the rule for shipping: shipped in session 36
    # (small_side 30, small_scales (1.25,), with min_card 0.52), real-dev read once after
    # (README, models/weights/eval-real-dev.json).
    small_side: float = 30.0
    small_scales: tuple[float, ...] = (1.25,)
    # An index that only that look finds (none of the first reads overlaps it, IoU 0.3) is kept
    # only from this confidence on (0: as any other index, from ``min_index``). It changes little:
    # with small_side 20 on the same 800 photos each, 0 v 0.6 missed / wrong unseen25 719 / 317
    # v 721 / 309, showdown23 1,587 / 425 v 1,590 / 422, synth2 549 / 189 v 556 / 187, synth4
    # 597 / 218 v 600 / 218 (models/weights/small-min-session29.json): the look's wrong cards
    # are mostly indices the first looks found too, read otherwise.
    small_min: float = 0.0
    cls_turns: int = 4  # each index read at four quarter turns, probabilities averaged
    # Each index is cut for the classifier at each of ``cls_margins`` (the crop's side over the
    # index box's longer side, as vision.crops.crop_square takes it; 1.15 is the training crop's)
    # and the probabilities of all these looks averaged (with the turns above): a detector box a
    # little off, or an index a little larger or smaller than the training crops', is read
    # from three framings. Session 30 (benchmarks/settings_sweep.py, 800 synthetic validation
    # photos each, models/weights/cls-margins-session30.json and min-card-session30-*.json),
    # cards missed / wrong, (1.15,) at min_card 0.5 v (1.0, 1.15, 1.3) at 0.5: synth2 569 / 172
    # v 575 / 153, synth4 616 / 210 v 638 / 183, showdown23 1,626 / 419 v 1,672 / 375, unseen25
    # (decks no training set has) 746 / 298 v 762 / 264 (1.15 and 1.3 alone: no better). Not a
    # step along the same curve: min_card swept with and without the margins, at as many wrong
    # cards the margins miss 21-58 fewer on each set. At min_card 0.48 with them: 559 / 166,
    # 611 / 203, 1,605 / 407, 745 / 287, fewer of both on every set (0.46: fewer missed, more
    # wrong; five framings 0.9-1.45, or 1.05-1.25, no better: cls-margins2-session30.json).
    # On: the reader 1.06x the time (benchmarks/reader_speed.py, 100 real-dev photos
    # side by side, models/weights/speed-session30-cls-margins.json: 41.6 v 44.2 ms).
    cls_margins: tuple[float, ...] = (1.0, MARGIN, 1.3)
    # Above 0: each index is also cut at the training margin with its centre moved this share of
    # its box's longer side left, right, up and down (four more looks, averaged with the
    # framings above): a box a little off centre read as if it were centred. 0: no such looks.
    # Session 42 (benchmarks/settings_sweep.py, 400 validation photos each of synth2, synth4,
    # showdown23, unseen25; models/weights/cls-shift-session42.json), cards missed / wrong at
    # min_card 0.5 / 0.52 / 0.54: 0 1,463 / 532, 1,514 / 493, 1,574 / 452; 0.06 1,459 / 530,
    # 1,519 / 489, 1,561 / 450; 0.12 1,521 / 496, 1,577 / 464, 1,627 / 423: 0.06 on the same
    # curve, 0.12 a worse one (the detector's boxes lie a median 0.025 of a side off centre,
    # box-fit-session33.json: little to mend). Off.
    cls_shift: float = 0.0
    # Each index also cut at the training margin from the photo turned by each of these angles
    # (degrees anticlockwise; with the four quarter turns, 45 reads it at eight ways), the
    # looks averaged with the framings above. Empty: none. Session 42 (the same 1,600 photos as
    # cls_shift above, models/weights/cls-tilts-session42.json), cards missed / wrong at
    # min_card 0.5 / 0.52 / 0.54: none 1,463 / 532, 1,514 / 493, 1,574 / 452; (45,) 1,464 / 543,
    # 1,531 / 501, 1,581 / 457; (22.5, 45, 67.5) 1,457 / 537, 1,509 / 503, 1,569 / 467: more
    # wrong cards for a few fewer missed at most (the classifier learnt every rotation already).
    cls_tilts: tuple[float, ...] = ()
    # A classifier of upright crops (``ginsight train --cls-upright``) reads each look turned
    # upright by the way-up reader's angle plus each of these degrees (0: that angle alone), the
    # reads averaged: it learnt crops turned up to 10 degrees off their true way. Session 43 (400
    # validation photos each of synth2, synth4, showdown23 and unseen25, cards missed / wrong,
    # models/weights/cls-up-tilts-session43.json) at min_card 0.6 / 0.62 / 0.64: (0,) 1,385 /
    # 479, 1,434 / 445, 1,497 / 404; (-6, 0, 6) 1,399 / 425, 1,449 / 386, 1,518 / 362; (-12, 0,
    # 12) 1,483 / 368, 1,551 / 344, 1,634 / 316: about 65-110 fewer missed at as many wrong.
    # (-6, 0, 6) at 0.6 against (0,) at 0.62: fewer of both in all (synth4 4 and 4 more).
    cls_up_tilts: tuple[float, ...] = (-6.0, 0.0, 6.0)
    # A weights folder may hold more index classifiers beside ``classifier.onnx``
    # (``classifier2.onnx``, ...): then each index is read by all of them, their probabilities
    # averaged (vision.onnx.ClassifierGroup). ``cls_members``: how many are asked, the first
    # ones (1: ``classifier.onnx`` alone); 0 all there are. The shipped folder has one: the
    # shipped classifier with its predecessor (session 19's, which it was trained on from)
    # beside it read no better. On 800 validation photos each of synth2, synth4, showdown23 and
    # unseen25 (session 35, models/weights/cls-pair-session35.json), cards missed / wrong at
    # min_card 0.48, 0.5, 0.52: 3,291 / 1,120, 3,422 / 1,028, 3,549 / 933 v the classifier
    # alone's 3,260 / 1,130, 3,377 / 1,030, 3,510 / 936 (at as many wrong 35-45 more missed);
    # held20's 300 photos at 0.5 138 / 32 v 128 / 32, black and white synth2 + synth4 1,463 /
    # 377 v 1,444 / 382 (cls-pair-held-session35.json, cls-pair-grey-session35.json).
    cls_members: int = 0
    # The first classifier's share of the group's mean (0: an even mean; 1: the first alone, as
    # cls_members 1). Session 41: a classifier trained apart on this CPU (75 minutes from
    # scratch, much weaker alone) beside the shipped one, shares swept with min_card
    # (models/weights/cls-apart-share-session41.json). The shipped folder has no group.
    cls_first: float = 0.0
    # With a group: 0, every crop is read by every member; above 0, the members after the first
    # read only the crops whose first member's top probability is under this (the rest keep the
    # first's alone), for most of a group's gain at a part of its time. Session 51: the shipped
    # classifier with session 50's grown one beside it (runs/cand-grow50b as classifier2.onnx),
    # on 400 validation photos each of synth2, synth4, showdown23 and unseen25 at min_card 0.66,
    # cards missed / wrong: every crop by both 1,401 / 319; under 0.99, 0.95, 0.9, 0.8, 0.7:
    # 1,401 / 319, 1,398 / 316, 1,403 / 319, 1,405 / 317, 1,401 / 316 (the classifier alone
    # 1,457 / 315); time on 100 real-dev photos against the classifier alone: every crop 1.37x,
    # under 0.9 1.12x, under 0.8 1.07x (models/weights/cls-group-*-session51.json,
    # speed-session51-group*.json). Not shipped: real-dev read one card fewer right and two
    # more wrong (eval-real-dev-candidate-session51.json); the shipped folder has no group.
    cls_unsure: float = 0.0
    min_index: float = 0.35  # an index read with less than this is dropped
    # A card with less than this is not reported. 0.48 in sessions 30-32 (with cls_margins above:
    # fewer cards both missed and wrong on every synthetic set); 0.5 again since session 33, with
    # its detector (trained on the lent GPU), which finds more and reads surer: on 800 synthetic
    # validation photos each of synth2, synth4, showdown23 and unseen25, cards missed / wrong
    # 3,472 / 1,056 (session 32's detector at 0.48) v 3,457 / 973 at 0.5 (3,342 / 1,080 at
    # 0.48; models/weights/detector-gpu2-min-card-session33.json). Kept with session 34's
    # detector (trained on on the CPU): 3,377 / 1,030 at 0.5, 3,260 / 1,130 at 0.48, 3,510 / 936
    # at 0.52 (models/weights/detector-min-card-session34.json); det_conf re-measured with it
    # in session 35 (above). 0.52 since session 36, with the 1.25x look for small indices
    # (small_side above): 3,395 / 997 on the same 3,200 photos, held20 132 / 25 (128 / 32 at
    # 0.5 without the look), on the curve in black and white. 0.62 since session 43, with the
    # classifier of upright crops (``ginsight train --cls-upright``), whose single read is surer
    # than four turns averaged: on 400 validation photos each of the four sets, 1,434 / 445 at
    # 0.62 v the session 42 reader's 1,514 / 493 at 0.52, fewer of both on every set (0.56 /
    # 0.58 / 0.6: 1,304 / 537, 1,344 / 515, 1,385 / 479; 0.65: 1,534 / 393;
    # models/weights/cls-upright-session43.json, cls-upright-high-session43.json). 0.6 with
    # cls_up_tilts (-6, 0, 6) (above): 1,399 / 425. 0.64 since session 46, with the classifier
    # trained on more new crops (data/mix47): on the same 1,600 photos, min_card 0.58 to 0.7 by
    # 0.02, 1,265 / 452, 1,312 / 422, 1,371 / 383, 1,420 / 347, 1,489 / 322, 1,568 / 297,
    # 1,645 / 274 against session 45's classifier's 1,285 / 434, 1,334 / 405, 1,399 / 388,
    # 1,463 / 351, 1,514 / 321, 1,591 / 294, 1,682 / 264 (models/weights/cls-upright-mix47-
    # session46.json, -high-session46.json, cls-upright-shipped-high-session46.json). The point
    # is chosen by the issue's own targets: at most 2% wrong and 5% missed make a wrong card
    # cost 2.5 missed ones, and missed + 2.5 x wrong is least at 0.64 (2,287.5; 0.62 2,328.5,
    # 0.66 2,294); session 45's at 0.6 2,346.5, at its own best (0.66) 2,316.5. Kept in session
    # 47, whose classifier trained on more new crops (data/mix49) reads fewer of both at each of
    # 0.6 to 0.68 by 0.02: 1,275 / 407, 1,335 / 379, 1,393 / 339, 1,457 / 315, 1,538 / 290
    # (cls-upright-mix49-session47.json); missed + 2.5 x wrong 2,292.5, 2,282.5, 2,240.5,
    # 2,244.5, 2,263: least at 0.64 still.
    min_card: float = 0.64
    # A card with less is flagged uncertain. Re-measured with session 33's detector
    # (benchmarks/flag_rules.py, models/weights/flag-rules-session33-*.json): fewer flags, 20
    # more wrong cards unflagged of 23,771, along the flag's own trade-off: kept. With session
    # 34's detector (session 35, flag-rules-session35.json): 4,022 of 23,908 cards flagged
    # (4,048 of 23,771 before), 223 wrong cards unflagged (234): fewer of both, kept. Nor does
    # any rule on those records drop wrong cards more cheaply than min_card does at its margin
    # (0.5 -> 0.52: 93 wrong for 134 right, 1.44 right a wrong; a card of two indices is never
    # under 0.58): one index and a gap under 0.2, 1.88; one index, black, under 0.55, 1.57.
    # Session 44, with session 43's classifier of upright crops (surer) and min_card 0.6: at
    # 0.75 only 2,231 of 24,341 cards were flagged and 370 wrong cards left unflagged
    # (flag-rules-session44.json, 800 photos of each of the four sets); each step up to 0.8
    # (0.76, 0.78, 0.8) flags 5.5-8.7 right cards for each wrong one it catches, 14.5 and more
    # beyond (10-30 was judged too dear in session 30). 0.8 (flag-rules-session44-80.json): the
    # reads are the same (flag-sweep-session44.json); the flag as it was in session 35 (4,022
    # flagged, 223 wrong unflagged), about as many wrong cards unflagged for fewer flags: 3,242
    # flagged, 242 wrong unflagged (the unflagged cards right 0.9885; 0.9833 at 0.75). Session
    # 45's classifier (new crops), measured again (flag-rules-session45.json): 3,162 of 24,438
    # flagged, 235 wrong unflagged (0.9890); 0.82 would flag 15.5 right a wrong: 0.8 kept.
    # Session 46's classifier at min_card 0.64 (flag-rules-session46.json): 2,714 of 24,143
    # flagged, 242 of 729 wrong unflagged (0.9887); 0.82 would flag 13.4 right a wrong: kept.
    # Session 47's (flag-rules-session47.json): 2,677 of 24,184 flagged, 249 of 715 wrong
    # unflagged (0.9884); 0.82 would flag 11.0 right a wrong (10-30 judged too dear in session 30): kept.
    uncertain_below: float = 0.8
    far_apart: float = 9.0  # indices of one code further than this many index sizes: flagged
    # A deck holds each card once: an index far from the stronger card of its code is another
    # card misread. With ``one_deck`` it is read again (flagged uncertain) instead of dropped,
    # as what ``one_deck_rule`` allows (:data:`ONE_DECK_RULES`): "any" code not yet in the photo,
    # or only its "suit" twin, the same rank in the other suit of its colour (the reader's
    # commonest confusion: a club read as a spade). On synthetic validation photos (session 17,
    # benchmarks/one_deck_rules.py, models/weights/one-deck-rules-session17.json) "suit" found
    # 13 more cards of 9,254 in colour and added 1 wrong (7 and 4 in black and white); "any"
    # found 18 and added 10 wrong (session 8 had turned "any" off for that). On: "suit".
    # ``far_apart`` 7 or 6 did about as well with it; 5 added 46 wrong cards, 4 added 138
    # (models/weights/one-deck-far-session17.json), so it stays at 9.
    one_deck: bool = True
    one_deck_rule: str = "suit"
    # The most indices one card shows (two): more near one of its code are other cards misread,
    # read again as far ones are (with ``one_deck``). 0: no limit. Off: on 1,600 synthetic
    # photos with the "suit" rule it found 2 more cards and added 15 wrong
    # (benchmarks/one_deck_rules.py --two, models/weights/one-deck-two-session17.json).
    card_indices: int = 0
    # Indices of one code whose boxes overlap by this IoU or more are one index boxed twice
    # (two looks' boxes not fused, a box and a part of it): the weaker is dropped before the
    # card's confidence is made of its two strongest, which would otherwise count one index's
    # evidence twice (a 0.58 index boxed twice makes a 0.82 card). A card's two indices lie
    # at opposite corners and two cards of one code are not in one deck, so no two real
    # indices of one code overlap. 0: off (session 55 found real-dev's reads holding 13 such
    # cards, all right, 2 of them left unflagged by it).
    same_index_iou: float = 0.0
    # A code's card is made from its strongest index and those near it; when that card is
    # under ``min_card`` (a stray index read alone), the code's indices lying away from it are
    # tried next as a card of their own (flagged uncertain), instead of being dropped with it:
    # a real card whose two indices each read weaker than the stray is then still found. On
    # (session 56): on 400 validation photos each of synth2, synth4 and showdown23 it found 2
    # more cards of 10,842 and added none wrong (1,075 / 218 missed / wrong against 1,077 /
    # 218; benchmarks/settings_sweep.py --set weak_code_retry=0,1,
    # models/weights/weak-code-retry-session56.json).
    weak_code_retry: bool = True
    # With the "suit" rule, how sure the index read again is of its suit twin: the twin's
    # share of what is left once the codes in the photo are ruled out; or, with ``twin_rank``
    # more than 0 and the index's share of its rank and colour (the code it was read as and
    # the twin together) at least ``twin_rank``, that whole share: it was read as that rank
    # and colour, and the card of that rank and colour it was read as is another one. Off
    # (0). With the shipped rules, on 2,700 synthetic photos read in colour and in black and
    # white (session 23, benchmarks/one_deck_rules.py --twin-rank and --twin-rank-at,
    # models/weights/twin-rank-session23.json and twin-rank-at-session23.json): at any share
    # (0.001) 59 more cards found and 147 more wrong (at showdown +19 / +44 and +21 / +48):
    # an index far from its code's card is often another rank misread, not its twin; at 0.9
    # none more found and 3 more wrong, at 0.97 and 0.99 no change.
    twin_rank: float = 0.0
    # A photo that is not square padded only to multiples of 32, not to a square (a model with
    # a dynamic input size): a 16:9 webcam frame read at 640x384, not 640x640. Off: on 200
    # synthetic 1280x720 frames it took 0.80 of the time, but it read 9 cards the square look
    # did not (5 wrong, 4 whose index the frame's edge cuts) and missed 3 that look read (2
    # right, 1 wrong): benchmarks/wide_frames.py, models/weights/wide-frames-session14.json.
    # A weights folder's reader.json may turn it on.
    rect: bool = False
    # The suit reader (``suit.onnx`` beside the classifier, ``models/suit.py``) gives the black
    # suit of indices the classifier reads as a spade or a club. False: not asked even when there.
    suit_reader: bool = True
    suit_rule: str = "product"  # how its say and the classifier's are weighed (vision.suits.with_suit)
    # With "product", how much the classifier's own split of spade and club counts (its odds
    # raised to this power; 1 as much as the suit reader's, 0 not at all: "replace"). 1: on 800
    # synthetic photos each of synth2, synth4, showdown23 and unseen25 (decks no training set
    # has), 0.75 and 0.5 found fewer cards and read about as many wrong (session 25,
    # benchmarks/settings_sweep.py, models/weights/suit-weight-session25-cand.json).
    suit_weight: float = 1.0
    # Each index a suit reader is asked about is cut at each of ``suit_margins`` (the crop's side
    # over the index box's longer side, as ``vision.crops.crop_square`` takes it) and, by a reader
    # of upright crops, read at each of ``suit_tilts`` degrees off the way-up reader's angle; the
    # probabilities of all these looks are averaged. One look each: the crop as cut for training.
    # More looks did not help: on 800 synthetic photos each (session 28, benchmarks/
    # settings_sweep.py), cards missed / wrong, one look v tilts -10, 0, 10: synth2 569 / 206 v
    # 574 / 204, synth4 608 / 250 v 610 / 249 (-20, 0, 20: 574 / 206, 615 / 249); margins 1.0,
    # 1.15, 1.3 on synth2 575 / 206 (1.05 to 1.4: 571 / 206) (models/weights/suit-tilts-session28.json,
    # suit-margins-session28.log).
    suit_margins: tuple[float, ...] = (MARGIN,)
    suit_tilts: tuple[float, ...] = (0.0,)
    # The grey-photo suit reader (``suit4.onnx``, models/suit.py, suits "SHDC"): in a photo with
    # no colour (vision.image.is_grey) it gives the suit of every index read as a card, in place
    # of the black suit reader. False: not asked even when there. Since session 56 the shipped
    # one reads crops turned upright by the way-up reader's angle, like the black one (on 300
    # black-and-white validation photos each of synth2, synth4, showdown23, unseen25 and held20,
    # cards missed / wrong 1,521 / 314 against session 18's 1,829 / 275 at min_card 0.64, and
    # 1,707 / 270 at 0.68: models/weights/grey-suit-up-scenes-*session56.json; trained on in
    # session 57, 1,434 / 297: grey-suit-up-scenes-session57*.json).
    grey_suit_reader: bool = True
    # How its say and the classifier's are weighed (vision.suits.with_suit): "replace", its say
    # alone. On 800 synthetic photos each of synth2 and synth4 made black and white (session 18,
    # models/weights/compare-session18-*.json), cards missed / wrong: without it 672 / 224 and
    # 814 / 286; "product" 613 / 245 and 724 / 298 (more found, more wrong); "replace" 678 / 197
    # and 799 / 253.
    grey_suit_rule: str = "replace"
    # In a photo with no colour, after the grey-photo suit reader the black suit reader too has
    # its say (suit_rule) on the indices then read as spades or clubs. Off: on the same 800
    # black-and-white photos of synth2 and synth4 it found 13 and 14 more cards and read 13 and
    # 17 more wrong (models/weights/compare-session18-grey-then-black-800.json).
    grey_then_black: bool = False
    # A card's two indices are point-symmetric: each is the other turned half a turn. So two
    # indices of one code, at least ``same_turn_apart`` index sizes apart (and nearer than
    # ``far_apart``), whose crops match better as they are than with one turned half a turn
    # (by more than ``same_turn_margin``, vision.crops.half_turn_likeness) lie the same way up
    # and are two cards: the weaker is another card misread, read again as a far one is (two
    # rows of cards laid out the same way up, a club read as the spade above it). 0 turns it off.
    # On 800 synthetic photos each of synth2 and synth4, in colour and in black and white, and
    # 800 of held20 (session 21, benchmarks/one_deck_rules.py --same-turn,
    # models/weights/same-turn-session21.json), 5 and 0.2 against off: 9 more cards found and
    # 3 more read wrong (4.5 / 0.1, 4 / 0.2 and 4 / 0.3 about the same; 3 / 0.3 and 3 / 0.5
    # added as many wrong as right). On synthetic photos a card's two indices lie a median
    # 3.8 index sizes apart, 5.3 at the 95th percentile, and one in 25 of the pairs nearer than
    # 5 sizes match better as they are by more than 0.2: from 5 sizes on, almost none.
    same_turn_apart: float = 5.0
    same_turn_margin: float = 0.2
    # The way-up reader (``way_up.onnx``, models/way_up.py) reads which way an index's top
    # faces. Two indices of one code at least ``way_up_apart`` index sizes apart (and nearer
    # than ``far_apart``) facing within ``way_up_same`` of one way (the cosine of the angle
    # between them) are two cards, read so before the crops' likeness above is asked; with
    # ``way_up_along`` > 0, only when they lie along that way (the |cosine| of the angle
    # between it and the line joining them at least that: a deck with four indices shows two
    # of one card side by side, facing the same way). 0 turns it off. On 800 synthetic photos
    # each of synth2, synth4 and two hands laid out in rows at showdown (showdown23), in colour
    # and black and white, and 300 of held20 (session 23, benchmarks/one_deck_rules.py
    # --way-up, models/weights/way-up-session23.json and way-up-showdown-session23.json),
    # 3 / 0.5 / 0 against the crops' likeness alone: 17 more cards found and 7 fewer wrong in
    # 5,400 reads, all at showdown (+7 / -5 in colour, +11 / -4 in black and white; the rest
    # -1 / +2); 4 and 5 about the same; "along" 0.7 found half as many (a meld of one rank
    # is laid side by side, so a misread twin lies beside its card, not above it). On: the
    # reader 1.035x the time (asked only about indices of one code way_up_apart to far_apart
    # sizes apart, which most photos have: a card's own two indices share a code).
    way_up_apart: float = 3.0
    way_up_same: float = 0.5
    way_up_along: float = 0.0
    # Two indices read as two codes that lie as one card's two indices lie are read together as
    # one card (:func:`read_as_pairs`): facing at most ``pair_cos`` of one way (opposite ways:
    # -1), each ``pair_along`` index sizes below the other and ``pair_across`` to its right
    # (:func:`card_frame`), and neither already one card with another index of its own code
    # lying so. Read as the code their probabilities multiplied find likeliest, when that code
    # has at least ``pair_share`` of the product and each index gives it at least ``pair_each``
    # (two cards that happen to lie so are each sure of their own code). 0 turns it off; a
    # weights folder without a way-up reader does not pair. On: 0.5 / 0.1. Session 28
    # (benchmarks/settings_sweep.py, models/weights/pairs-session28-*.json), on 800 synthetic
    # photos each, cards missed / wrong, off v on: synth2 569 / 206 v 569 / 172, synth4 608 /
    # 250 v 616 / 210, showdown23 1,622 / 452 v 1,626 / 419, unseen25 (decks no training set
    # has) 735 / 338 v 746 / 298: 150 fewer wrong and 23 more missed (two cards lying so, read
    # as one); black and white synth2 and synth4 75 fewer wrong, 16 more missed. 0.8 and 0.9
    # mended fewer (synth2 183, 190 wrong); on 500 other photos (pairs28: 300 of every kind,
    # 200 showdowns) pair_each 0.02-0.2, pair_share 0.3-0.6, pair_cos -0.3 to -0.9 and
    # pair_along 1-6.5 or 2-4.5 and pair_across -1-5 or 0.5-3.5 made at most 3 cards' difference.
    # Session 59, with that session's networks (models/weights/pair-each-session59.json; 300
    # photos each of synth2, synth4, showdown23, unseen25 and held20): pair_each 0.1 / 0.05 /
    # 0.02 / 0.005 at pair_share 0.5, cards missed / wrong 1,092 / 259, 1,090 / 262, 1,089 /
    # 260, 1,094 / 256 of 10,728 (share 0.4: within 3 more wrong): within the noise; kept.
    pair_share: float = 0.5
    # With ``pair_weak`` above 0, an index read with less than ``min_index`` but at least this
    # is kept to be read with its card's other index (of its own code too), and dropped unless
    # that lifts it to ``min_index``. 0 turns it off. Off: at 0.15 on 800 synthetic photos
    # each (session 28, models/weights/pairs-session28-weak-*.json), cards missed / wrong
    # against off: synth2 -7 / +6, synth4 -9 / 0, showdown23 -7 / +8, unseen25 -8 / +11 (0.25
    # about the same): a card more found for about one more wrong.
    pair_weak: float = 0.0
    pair_each: float = 0.1
    pair_cos: float = -0.5
    pair_along: tuple[float, ...] = (1.5, 5.5)
    pair_across: tuple[float, ...] = (0.0, 4.0)
    # A black number card's suit checked by its pips (vision.pips; the pip reader pips.onnx,
    # where the weights folder has one): the card read as the other black suit when at least
    # this many of its pips are read so with pip_sure or more and none as its own suit
    # (Reader.check_pips). 0 turns it off. Off: on 800 synthetic validation photos each of
    # synth2, synth4, showdown23 and unseen25 (session 32, benchmarks/settings_sweep.py with a
    # weights folder holding session 32's pips.onnx), cards missed / wrong in all against off
    # (3,472 / 1,056): 2 pips, cards flagged uncertain only, -1 / -1; every card +5 / +5 (1 pip
    # +31 / +31; pip_sure 0.97 -1 / -1, 0.99 -3 / -3); each index before the cards are made
    # (this check's first form) -4 / -4 (models/weights/pip-su*-session32*.json). Where a
    # card's pips show it is mostly read right already; where it is misread (a row, a fan),
    # its pips are covered.
    pip_suit: int = 0
    pip_sure: float = 0.9
    pip_unsure_only: bool = True  # only cards the reader flags uncertain are checked
    # A photo stretched to a square by whatever exported it (a 16:9 webcam frame resized to
    # 640x640 squeezes every glyph to 0.56 of its width: a club then looks like a spade) is read
    # again stretched back by each of ``aspects`` (vision.image.stretch: above 1 wider, below 1
    # taller, e.g. 1.78 for 16:9), and the reading whose cards score best is kept, its boxes
    # given back in the photo's own pixels. The score (``aspect_score``): "sum", the sum of the
    # cards' confidences; "mean", their mean. Another aspect must beat the photo as it is by
    # more than ``aspect_gain``. Empty: the photo is read only as it is. Measured in session 36
    # (benchmarks/settings_sweep.py, min_card 0.52; the idea from a diagnosis on real-dev's
    # webcam frames, which are 16:9 squeezed to squares, the choice on synthetic photos only):
    # 800 validation photos each of synth2, synth4, showdown23 and unseen25 squeezed to 0.5625
    # of their width in their frame (--squeeze 0.5625; 400 each), cards missed / wrong 4,024 /
    # 494 as they are read, 2,181 / 474 with (1.78,) (aspects-squeezed-session36.json); the
    # photos as they are 3,395 / 997 v 3,212 / 1,042 (aspects-session36.json); aspect_gain 0.5
    # and 1 fewer wrong, fewer found (aspects-gain-*session36.json); photos squeezed in height
    # (0.75) unchanged (aspects-squeezed-y-session36.json). With the probe below at 0.03: as
    # they are 3,240 / 998, squeezed (200 each) 1,056 / 194 against 1,842 / 226 (always: 991 /
    # 205) (aspects-probe-*session36.json); time 1.11x on 100 real-dev photos (always: 2.15x,
    # over the 100 ms target; speed-session36-aspects*.json); held20 132 / 25 v 126 / 28, black
    # and white synth2 + synth4 1,467 / 358 v 1,405 / 364. Shipped in session 36, for square
    # photos only (the shape an export squeezes to) until session 38 (below).
    # Session 37 added 0.75 (a 3:4 portrait phone photo squeezed to a square, made 1.33x taller
    # again), chosen on synthetic photos only (settings_sweep.py, aspects-*-session37.json), cards
    # missed / wrong with (1.78,) v (1.78, 0.75): the four sets squeezed to 0.75 of their height
    # (400 each) 2,113 / 541 v 1,685 / 530; squeezed to 0.75 of their width 1,747 / 499 v 1,728 /
    # 502; as they are (800 each) 3,240 / 998 v 3,041 / 999 (a taller look finds more in rows of
    # small indices too); to 0.5625 of their width (200 each) unchanged on synth2; held20 126 / 28
    # v 121 / 30; black and white (synth2 + synth4, 400 each) 711 / 166 v 672 / 165. 1.33 (a
    # 4:3 landscape photo widened back) was measured too and left out: as they are 30 more found
    # for 17 more wrong, squeezed to 0.75 of their width 62 for 20. Time 1.14x side by side on
    # 100 real-dev photos (speed-session37-aspects-075.json). Real-dev read after: unchanged.
    # Session 38 added 0.5625 (a 9:16 portrait photo squeezed to a square, made 1.78x taller
    # again), chosen on synthetic photos only (settings_sweep.py, aspects-*-session38.json and
    # aspects-taller-more-session37.json), cards missed / wrong with (1.78, 0.75) v (1.78, 0.75,
    # 0.5625): the four sets squeezed to 0.5625 of their height (200 each) 1,112 / 266 v 943 /
    # 267; to 0.75 of their height 774 / 255 v 726 / 261; as they are (300 each) 1,118 / 335 v
    # 1,101 / 337; held20 121 / 30 v 117 / 28; black and white (synth2 + synth4, 400 each) 672 /
    # 165 v 664 / 170 (on min_card's curve); squeezed to 0.5625 of their width: see HISTORY.
    # Time 1.065x side by side on 100 real-dev photos (speed-session38-aspects-3.json).
    # Real-dev read after: the same cards (330 right / 20 wrong / 26 missed), median 63.8 ms.
    aspects: tuple[float, ...] = (1.78, 0.75, 0.5625)
    aspect_score: str = "sum"
    aspect_gain: float = 0.0
    # Since session 38 a photo of any shape takes the looks above (``aspect_squares_only``
    # False; True: a square photo only, as in sessions 36-37). A webcam frame or a phone photo
    # at its own aspect is not squeezed, but a stretched look still finds cards the photo as it
    # is misses (as on square photos as they are). Measured on synthetic photos only
    # (settings_sweep.py --band, aspects-band*-session38.json, aspects-portrait-session38.json),
    # cards missed / wrong read once v with (1.78, 0.75) v (1.78, 0.75, 0.5625): the four sets'
    # middle 16:9 band (a 640x360 webcam frame, 300 each) 1,318 / 279 v 1,187 / 292 v 1,173 /
    # 295; their middle 3:4 portrait part (200 each) 822 / 209 v 749 / 216 v 735 / 217; held20's
    # 16:9 band (300) 119 / 21 v 112 / 25 v 112 / 25. The cost: such a frame is read 1.75x as
    # long (100 synthetic 1280x720 frames, 64.2 v 112.4 ms, speed-session38-wide-frames-3.json),
    # a 12-megapixel portrait photo 1.83x (20 made so, 142.6 v 260.3 ms,
    # speed-session38-phone-12mp.json); real-dev's square photos are unchanged.
    aspect_squares_only: bool = False
    # What is kept of the looks read: "best", the one reading whose cards score best (above);
    # "indices", every look's indices pooled, in the photo's own pixels, and of those that
    # overlap by ``aspect_merge_iou`` or more the surest kept, then made into cards (a card one
    # look found and another missed is kept either way). Measured in session 38 on synthetic
    # photos (settings_sweep.py, aspect-merge-*session38.json), cards missed / wrong, "best" v
    # "indices" (IoU 0.5; 0.3 alike): the four sets as they are (300 each) 1,101 / 337 v 1,090 /
    # 342 (at min_card 0.56 1,175 / 273 v 1,166 / 280); squeezed to 0.5625 of their height (200
    # each) 943 / 267 v 908 / 275; their 16:9 band 1,173 / 295 v 1,161 / 302; held20 117 / 28 v
    # 118 / 31; black and white 664 / 170 v 660 / 173. A few more found for a few more wrong,
    # held-up cards worse: not shipped.
    aspect_merge: str = "best"
    aspect_merge_iou: float = 0.5
    # The second read costs as much as the first. ``aspect_probe`` first asks the classifier
    # alone about the indices already read, cut from the stretched photo (one framing): the
    # photo is read again only where its mean top probability there beats the photo's as it
    # is by more than this (-1: always read again).
    aspect_probe: float = 0.03
    # A photo that reads no index as it is has nothing for the probe to weigh, and before session
    # 53 was not looked at stretched ("off"). ``aspect_when_empty``: read such a photo at each of
    # ``aspects`` too (a squeezed webcam frame of one card held up, whose index the detector
    # misses as it is), keeping the look that reads most, as for any other photo: "looks" reads
    # each look once, "zoomed" takes each look's closer look too (``zoom_scales``) where it reads
    # nothing, as the photo as it is took its own. Costs only photos that read nothing (an empty
    # table: ``aspects`` more reads of nothing, each with its closer look if "zoomed").
    # Measured in session 53 on synthetic photos (settings_sweep.py,
    # models/weights/aspect-when-empty-*session53.json), cards missed / wrong off / looks /
    # zoomed: squeezed to 0.5625 of their width (synth2, synth4, showdown23, unseen25, held20 and
    # single53's held-up cards, 300 each) 2,024 / 236, 1,967 / 237, 1,963 / 239; as they are,
    # off / looks, 1,132 / 261 and 1,131 / 261. Time (reader_speed.py): 200 real-dev photos 1.016x
    # the median (1.14x the total: the few that read nothing); 100 photos of no card 1.93x
    # (352 v 183 ms), no card read on them either way. Real-dev read after: the same cards. The
    # live video skips them (Reader.read's empty_looks; benchmarks/video_empty.py: on an empty
    # table they made the mean frame 1.53x slower, video-empty-looks-session53.json).
    aspect_when_empty: str = "looks"
    # A mirrored photo (a selfie camera's, a webcam app that saves what its preview shows) shows
    # every index mirrored, glyphs no card has; the networks never learnt them (no training photo
    # is mirrored) and read many as other codes, surely (real-dev's photos flipped, session 58:
    # a 2 read as a 5, a 4 as an ace, a 9 as a queen, at 0.8-0.96). ``mirror_check``: the
    # detector's boxes on the photo as it is (its first look) are read by the classifier as they
    # lie and where they lie in the photo flipped left-right (the detector not asked again,
    # :meth:`Reader.mirror_odds`). Where the mirrored read is ``mirror_least`` or more and
    # comes within ``mirror_ask`` of the read as they lie (the boxes' mean confidences: a photo
    # of an empty table, with a few weak boxes, is not asked), the flipped photo is read in
    # full too, and kept when its cards' confidences sum more than ``mirror_gain`` over the
    # photo's: the reading then says so (``Reading.mirrored``). The live video skips it (a
    # camera's own frames are not mirrored; streamlit-webrtc hands them as taken). Chosen in
    # session 58 (benchmarks/mirror_check.py, models/weights/mirror-check-session58.json: 200
    # validation photos each of synth2, synth4, showdown23, unseen25 and held20, as they are
    # and flipped): at least 0.3, ask 0, cards missed / wrong as they are 684 / 165 with the
    # check as without (least 0.2: 685 / 168), flipped 5,427 / 1,479 without, 1,007 / 203 with;
    # time 1.03-1.09x by set, 1.038x the median on 200 real-dev photos.
    # ``mirror_strong`` (session 59): only the boxes that read as an index at this confidence or
    # more one way or the other (as they lie or mirrored) count in the means; the detector's
    # weak boxes (a pip, a face card's picture, the table) read about as weakly either way and
    # only drew the two means together. Chosen on session 58's 1,000 photos as they are and
    # flipped (models/weights/mirror-check-session59.json; the means over every box, 0: 720 of
    # 925 mirrored photos caught, flipped 1,007 / 203 missed / wrong): 0.3-0.5 all caught
    # 825-832, 0.4 832, flipped 749 / 189, as they are 684 / 165 either way, 35 photos read
    # twice (32). Checked on the next 200 photos of each set (100 of held20's; mirror-check-
    # fresh-session59.json): flipped 1,126 / 249 -> 866 / 225, caught 654 -> 750, as they are
    # 788 / 204 -> 787 / 204.
    mirror_check: bool = True
    mirror_strong: float = 0.4
    mirror_least: float = 0.3
    mirror_ask: float = 0.0
    mirror_gain: float = 0.0
    # A photo that reads no card at all, after its looks and the mirror check (a card held up to
    # a webcam whose index the detector finds only weakly): ``empty_min_card`` above 0 reads it
    # once more with the bars lowered, the detector's to ``empty_det_conf`` and the cards' (and
    # their indices') to ``empty_min_card``, and reports the surest card so read, alone and
    # flagged uncertain (the app asks the player to check it), rather than nothing. 0: off.
    # Costs only photos that read nothing; the live video skips it (Reader.read's empty_looks),
    # so that an empty table makes no guesses. Measured in session 60 (benchmarks/empty_guess.py,
    # models/weights/empty-guess-session60.json: 800 validation photos of single60, one card
    # held up, and every validation photo of held20, synth2, synth4, showdown23 and unseen25,
    # 2,700 photos, 14,655 cards, 367 of the photos reading none), det 0.05, cards missed /
    # wrong off 1,513 / 386; at 0.3, 0.4, 0.5, 0.6: 1,490 / 447, 1,494 / 425, 1,498 / 411,
    # 1,507 / 393 (the guesses 23 right for 61 wrong ... 6 for 7): missed + 2.5 x wrong worse at
    # every value, on every set but showdown23 (one card either way); on single60 alone 42 / 17
    # off, 38 / 19 at 0.6. The wrong guesses, by eye: a held-up card misread (8C as 6C, AS as
    # AC, JS as JC), a table's printed text read as an index. 200 photos of no card: no guess
    # at any value, and a guess took about as long as their read (438 v 433 ms). Off. (Real-dev, the
    # diagnosis that prompted it: at 0.3 two held-up cards read right, KH and QH, and a 5C as 2D.)
    empty_min_card: float = 0.0
    empty_det_conf: float = 0.05

    def __post_init__(self) -> None:
        if self.det_vote not in VOTES:
            raise ValueError(f"unknown det_vote {self.det_vote!r}: one of {', '.join(VOTES)}")
        for name in ("det_members", "cls_members"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 (all) or more, not {getattr(self, name)!r}")
        if not 0 <= self.cls_unsure <= 1:
            raise ValueError(f"cls_unsure must be from 0 (every crop read by every classifier) to 1, "
                             f"not {self.cls_unsure!r}")
        if not 0 <= self.cls_first <= 1:
            raise ValueError(f"cls_first must be from 0 (an even mean) to 1 (the first classifier alone), "
                             f"not {self.cls_first!r}")
        if not 0 <= self.empty_min_card <= 1:
            raise ValueError(f"empty_min_card must be a confidence from 0 (off) to 1, not {self.empty_min_card!r}")
        if not 0 < self.empty_det_conf <= 1:
            raise ValueError(f"empty_det_conf must be a detector score above 0 up to 1, not {self.empty_det_conf!r}")
        if self.aspect_when_empty not in WHEN_EMPTY:
            raise ValueError(f"unknown aspect_when_empty {self.aspect_when_empty!r}: one of {', '.join(WHEN_EMPTY)}")
        if self.one_deck_rule not in ONE_DECK_RULES:  # a typo in reader.json named at once
            raise ValueError(f"unknown one_deck_rule {self.one_deck_rule!r}: one of {', '.join(ONE_DECK_RULES)}")
        for name in ("suit_rule", "grey_suit_rule"):
            if getattr(self, name) not in SUIT_RULES:
                raise ValueError(f"unknown {name} {getattr(self, name)!r}: one of {', '.join(SUIT_RULES)}")
        if not 0 <= self.cls_shift < 0.5:
            raise ValueError(f"cls_shift must be a share of the index box's side from 0 to under 0.5, "
                             f"not {self.cls_shift!r}")
        for name in ("cls_margins", "suit_margins"):
            margins = getattr(self, name)
            if not margins or min(margins) <= 0:
                raise ValueError(f"{name} must be one or more sizes above 0, not {margins!r}")
        for name in ("det_turns", "zoom_turns"):
            turns = getattr(self, name)
            if not turns or any(t not in (0, 1, 2, 3) for t in turns) or len(set(turns)) < len(turns):
                raise ValueError(f"{name} must be distinct quarter turns 0-3, not {turns!r}")
        for name in ("suit_tilts", "cls_up_tilts"):
            if not getattr(self, name):
                raise ValueError(f"{name} must hold at least one angle (0: the way-up reader's own)")
        if any(f <= 0 for f in self.aspects):
            raise ValueError(f"aspects must be stretch factors above 0, not {self.aspects!r}")
        if self.aspect_score not in ASPECT_SCORES:
            raise ValueError(f"unknown aspect_score {self.aspect_score!r}: one of {', '.join(ASPECT_SCORES)}")
        if self.aspect_merge not in ASPECT_MERGES:
            raise ValueError(f"unknown aspect_merge {self.aspect_merge!r}: one of {', '.join(ASPECT_MERGES)}")
        if not 0 < self.aspect_merge_iou <= 1:
            raise ValueError(f"aspect_merge_iou must be an overlap in (0, 1], not {self.aspect_merge_iou!r}")
        for name in ("pair_along", "pair_across"):
            bounds = getattr(self, name)
            if len(bounds) != 2 or bounds[0] > bounds[1]:
                raise ValueError(f"{name} must be two index sizes, the least then the most, not {bounds!r}")

    @classmethod
    def load(cls, folder: Path) -> Settings:
        """The settings of a weights folder: the defaults, overridden by its ``reader.json`` (a
        JSON object of settings; lists for tuples). Raises ``WeightsError`` naming the file and
        what is wrong: not JSON, not an object, an unknown (misspelt) setting, a value of the
        wrong kind or out of its range, so that no typo is silently read as the default."""
        path = Path(folder) / "reader.json"
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text())
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise WeightsError(f"{path}: not JSON ({exc})") from None
        except OSError as exc:  # a folder of that name, a file it may not read
            raise WeightsError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        if not isinstance(data, dict):
            raise WeightsError(f"{path}: must be a JSON object of settings, not {type(data).__name__}")
        fields = {f.name: f.type for f in dataclasses.fields(cls)}
        for key, value in data.items():
            if key not in fields:
                near = difflib.get_close_matches(key, fields, n=1)
                raise WeightsError(f"{path}: unknown setting {key!r}" + (f" ({near[0]}?)" if near else ""))
            wrong = _wrong_kind(key, fields[key], value)
            if wrong:
                raise WeightsError(f"{path}: {wrong}")
        try:
            return cls(**{k: _setting_value(fields[k], v) for k, v in data.items()})
        except ValueError as exc:
            raise WeightsError(f"{path}: {exc}") from None


def _is_number(v) -> bool:
    """A JSON number a setting can hold: not a boolean, not NaN or infinite (which Python's
    json reads from ``NaN`` and ``Infinity``)."""
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _wrong_kind(name: str, kind: str, value) -> str | None:
    """What is wrong with ``value`` (from JSON) for the setting ``name`` of the type ``kind``
    (its annotation, as written), or None."""
    whole = "int" in kind
    if kind.startswith("tuple"):
        if isinstance(value, list) and all(_is_number(v) and (not whole or isinstance(v, int)) for v in value):
            return None
        return f"{name} must be a list of {'whole numbers' if whole else 'numbers'}, not {value!r}"
    checks = {"float": (_is_number, "a number"),
              "int": (lambda v: _is_number(v) and isinstance(v, int), "a whole number"),
              "bool": (lambda v: isinstance(v, bool), "true or false"),
              "str": (lambda v: isinstance(v, str), "a string")}
    ok, what = checks[kind]
    return None if ok(value) else f"{name} must be {what}, not {value!r}"


def _setting_value(kind: str, value):
    """A JSON value (checked by _wrong_kind) as the setting holds it: a list as a tuple, a whole
    number as a float where the setting is one."""
    if kind.startswith("tuple"):
        return tuple(value) if "int" in kind else tuple(float(v) for v in value)
    return float(value) if kind == "float" else value


class Look(NamedTuple):
    """One look at a photo (as it is, or stretched): the indices read, the cards they make, and
    the indices as the cards report them (an index the one-deck rule read again carries that
    code, :func:`reported_indices`; ``Reading.indices``). The aspect probe and the merging of
    looks weigh ``indices``, as read."""

    indices: list[IndexRead]
    cards: list[CardRead]
    reported: list[IndexRead]


class SuitSay(NamedTuple):
    """A suit reader that has its say on a photo's indices (``vision.suits.apply_suit_reader``)."""

    net: IndexClassifier | None
    suits: str  # the suits it tells apart: "SC", or "SHDC" for the grey-photo one
    rule: str  # how its say and the classifier's are weighed
    weight: float = 1.0  # with "product", how much the classifier's split counts


@dataclass
class IndexRead:
    box: tuple[float, float, float, float]
    card: str
    confidence: float  # detector score x classifier probability
    probs: np.ndarray = field(repr=False)
    patch: np.ndarray | None = field(default=None, repr=False)  # the grey crop (same_turn_apart)
    up: np.ndarray | None = field(default=None, repr=False)  # the way its top faces, a unit (x, y) (way_up_apart)
    # read together with its card's other index, which had read another code (read_as_pairs):
    # how sure the two together are of the code (its share of their probabilities multiplied)
    paired_share: float | None = None
    # the classifier's top card probability for it cut at the training margin, one framing (the
    # first read's, before any suit reader or pairing): what Reader.top_prob asks, kept so that
    # the aspect probe need not ask the way-up reader and classifier again for the photo as it is
    top: float | None = None


class Reader:
    """Loads the shipped models once; :meth:`read` is safe to call repeatedly."""

    suit: IndexClassifier | None = None  # the suit reader, where the weights folder has one
    suit_up: IndexClassifier | None = None  # a second black suit reader (suit_up.onnx), likewise
    grey_suit: IndexClassifier | None = None  # the grey-photo suit reader, likewise
    way_up: WayUpReader | None = None  # the way-up reader, likewise
    pips: IndexClassifier | None = None  # the pip reader (pips.onnx), likewise

    def __init__(self, weights_dir: str | Path | None = None, threads: int = 2) -> None:
        folder = Path(weights_dir) if weights_dir is not None else DEFAULT_WEIGHTS
        det, cls = folder / "detector.onnx", folder / "classifier.onnx"
        for f in (det, cls):
            if not f.exists():
                raise FileNotFoundError(f"model file missing: {f} (train with `ginsight train`)")
        cv2.setNumThreads(threads)
        self.settings = Settings.load(folder)
        self.detector = IndexDetector(det, threads=threads, rect=self.settings.rect)
        more = [IndexDetector(p, threads=threads, rect=self.settings.rect) for p in _numbered(folder, "detector")]
        self.detectors = 1 + len(more)  # how many detectors the folder has (Settings.det_members)
        if more:
            self.detector = DetectorGroup([self.detector, *more])
        self.classifier = IndexClassifier(cls, threads=threads)
        more = [IndexClassifier(p, threads=threads) for p in _numbered(folder, "classifier")]
        self.classifiers = 1 + len(more)  # how many index classifiers the folder has (Settings.cls_members)
        if more:
            self.classifier = ClassifierGroup([self.classifier, *more])
        self.suit = load_suit_reader(folder, self.settings, threads)
        self.suit_up = load_suit_reader(folder, self.settings, threads, "suit_up")
        self.grey_suit = load_suit_reader(folder, self.settings, threads, "suit4")
        path = folder / "way_up.onnx"
        self.way_up = WayUpReader(path, threads=threads) if path.exists() else None
        for net, what in ((self.classifier, "classifier"), (self.suit, "suit reader"), (self.suit_up, "suit reader"),
                          (self.grey_suit, "suit reader")):
            if net is not None and net.upright and self.way_up is None:
                raise FileNotFoundError(f"model file missing: {path} (the {what} in {folder} reads indices "
                                        "turned upright by the way-up reader's angle)")
        path = folder / "pips.onnx"
        self.pips = IndexClassifier(path, threads=threads) if path.exists() else None
        self._local = threading.local()  # each thread's last first look (Reader.first_look)

    def read_indices(self, img: np.ndarray, zoom: bool = True) -> list[IndexRead]:
        """The indices read in ``img``; with ``zoom``, a photo that reads none is looked at
        again at ``settings.zoom_scales``, and one whose indices are small also at
        ``settings.small_scales`` (Settings.small_side)."""
        grey = self.grey_suit is not None and is_grey(img)
        reads = self._read_at(img, self.settings.det_scales, grey)
        s = self.settings
        if not reads and zoom and s.zoom_scales:
            reads = self._read_at(img, s.zoom_scales, grey, s.zoom_turns)
        elif zoom and takes_small_look(reads, s):
            first = reads
            reads = [r for r in self._read_at(img, (*s.det_scales, *s.small_scales), grey)
                     if r.confidence >= s.small_min or any(iou(r.box, f.box) >= 0.3 for f in first)]
        return reads

    def check_pips(self, img: np.ndarray, cards: list[CardRead]) -> list[CardRead]:
        """``cards`` with each black number card (with ``pip_unsure_only``, each one flagged
        uncertain) whose pips (``vision.pips``, looked for from each of its indices) say the
        other black suit (``pip_suit`` of them or more, none its own) read as that suit, unless
        another card of the photo is read so (one deck). A card so read stays flagged
        uncertain: the app asks the player to check it."""
        s = self.settings
        ask = [i for i, c in enumerate(cards) if c.card[0] in NUMBER_RANKS and c.card[1] in "SC"
               and (c.uncertain or not s.pip_unsure_only)]
        if not ask:
            return cards
        boxes = np.array([b for i in ask for b in cards[i].boxes], np.float32)
        ups = iter(self.way_up(crop_squares(img, boxes, self.way_up.size)))
        others = [b for c in cards for b in c.boxes]
        codes = {c.card for c in cards}
        cards = list(cards)
        for i in ask:
            c = cards[i]
            spades = clubs = 0
            for box in c.boxes:
                votes = pip_votes(self.pips, img, box, next(ups), others, s.pip_sure)
                spades, clubs = spades + votes[0], clubs + votes[1]
            own, other = (spades, clubs) if c.card[1] == "S" else (clubs, spades)
            twin = suit_twin(c.card)
            if other >= s.pip_suit and own == 0 and twin not in codes:
                codes.discard(c.card)
                codes.add(twin)
                cards[i] = replace(c, card=twin, uncertain=True)
        return cards

    def _read_at(self, img: np.ndarray, scales: tuple[float, ...], grey: bool = False,
                 turns: tuple[int, ...] | None = None) -> list[IndexRead]:
        """The indices read in ``img`` at detector ``scales`` and ``turns``; the first look's
        (``det_scales``, ``det_turns``) detector answer is kept for :meth:`first_look`."""
        turns = self.settings.det_turns if turns is None else turns
        first = scales == self.settings.det_scales and turns == self.settings.det_turns
        found = self._find(img, scales, turns)
        boxes, scores, added = found
        if len(boxes) == 0:
            if first:
                _remember_first_look(self, img, found, None)
            return []
        crops = crop_squares(img, boxes, self.classifier.size)
        ways = WayAnswers(self.way_up, crops) if self.way_up is not None else None
        if first:
            _remember_first_look(self, img, found, ways)
        probs, margin = self._margin_probs(img, boxes, crops,
                                           ways.degrees(range(len(boxes))) if self.classifier.upright else None)
        # each index's one-framing figure, kept for the aspect probe (IndexRead.top)
        tops = [None] * len(boxes) if margin is None else [float(v) for v in margin[:, :NONE_CLASS].max(1)]
        keep_patches = self.settings.same_turn_apart > 0 or self._asks_way_up()
        patches = to_grey(crops) if keep_patches else [None] * len(boxes)
        for net, suits, rule, weight in self.suit_says(grey):
            probs = apply_suit_reader(probs, lambda mask, net=net: self.suit_probs(
                net, self.suit_crops(net, img, boxes[mask]), crops[mask],
                ways.degrees(np.flatnonzero(mask)) if ways is not None and net.upright else None),
                rule, suits, weight)
        s = self.settings
        pairs = s.pair_share > 0 and ways is not None
        least = min(s.pair_weak, s.min_index) if pairs and s.pair_weak > 0 else s.min_index
        reads = ((row, index_read(tuple(float(v) for v in box), score, p, s, patch, least=least, top=top))
                 for row, (box, score, p, patch, top) in enumerate(zip(boxes, scores, probs, patches, tops,
                                                                       strict=True)))
        kept = [(row, r) for row, r in reads if r is not None and (row < added or r.confidence >= s.turned_min)]
        weak = [(row, r) for row, r in kept if r.confidence < s.min_index]  # only with pair_weak
        kept = [(row, r) for row, r in kept if r.confidence >= s.min_index]
        rows, reads = [row for row, _ in kept], [r for _, r in kept]
        if self._asks_way_up():
            reads = self._with_way_up(reads, lambda ask: ways.vectors([rows[i] for i in ask]))
        if pairs and len(reads) + len(weak) > 1:
            every = reads + [r for _, r in weak]
            ups = ways.vectors(rows + [row for row, _ in weak])
            paired = read_as_pairs([replace(r, up=u) for r, u in zip(every, ups, strict=True)], s)
            reads = [r for r in paired if r.confidence >= s.min_index]  # weak ones read with another may pass
        return reads

    def _detect(self, img: np.ndarray, scales: tuple[float, ...], turns: tuple[int, ...]):
        s = self.settings
        if getattr(self, "detectors", 1) > 1:  # a group of detectors (vision.onnx.DetectorGroup): always fused
            return self.detector(img, conf=s.det_conf, iou=s.det_iou, scales=scales, turns=turns, fuse=True,
                                 members=s.det_members, vote=s.det_vote)
        if s.det_fuse:  # ``fuse`` passed only when on: a stand-in detector without it serves with it off
            return self.detector(img, conf=s.det_conf, iou=s.det_iou, scales=scales, turns=turns, fuse=True)
        return self.detector(img, conf=s.det_conf, iou=s.det_iou, scales=scales, turns=turns)

    def _find(self, img: np.ndarray, scales: tuple[float, ...], turns: tuple[int, ...]
              ) -> tuple[np.ndarray, np.ndarray, int]:
        """The detector's boxes and scores at ``scales`` and ``turns``, and the row from which
        the boxes are ones only a later turn found (``Settings.turned_new_only``; else all rows)."""
        s = self.settings
        if not s.turned_new_only or len(turns) < 2:
            boxes, scores = self._detect(img, scales, turns)
            return boxes, scores, len(boxes)
        boxes, scores = self._detect(img, scales, turns[:1])
        more, more_scores = self._detect(img, scales, turns[1:])
        new = [i for i, box in enumerate(more) if all(iou(box, b) < 0.3 for b in boxes)]
        return (np.concatenate([boxes, more[new]]).astype(np.float32),
                np.concatenate([scores, more_scores[new]]).astype(np.float32), len(boxes))

    def _classify(self, crops: np.ndarray, degrees: np.ndarray | None = None) -> np.ndarray:
        """The classifier's probabilities for ``crops``: read at ``cls_turns`` turns; or, for a
        classifier of upright crops (``models.classifier`` ``upright``), turned upright by
        ``degrees`` (the way-up reader's angles; asked here where None) plus each of
        ``cls_up_tilts``, read once each, averaged."""
        s = self.settings
        turns = s.cls_turns
        if self.classifier.upright:
            degrees = np.asarray(self.way_up.degrees(crops) if degrees is None else degrees, np.float32)
            n, tilts = len(crops), s.cls_up_tilts
            crops, turns = np.concatenate([turn_upright(crops, degrees + t) for t in tilts]), 1
            if len(tilts) > 1:
                return self._classify_as_is(crops, turns).reshape(len(tilts), n, -1).mean(0)
        return self._classify_as_is(crops, turns)

    def crop_probs(self, crops: np.ndarray, batch: int = 2048) -> np.ndarray:
        """The classifier's probabilities (N, classes) for index crops (N, S, S, 3) cut at its side,
        asked as the reader asks it (:meth:`_classify`: at ``cls_turns`` turns, or turned upright
        by the way-up reader and read once at each of ``cls_up_tilts``), ``batch`` at a time: for
        scripts that read crops without a photo (benchmarks/deck_reads.py, compare_weights.py)."""
        if len(crops) == 0:
            return np.zeros((0, self.classifier.classes), np.float32)
        return np.concatenate([self._classify(crops[i:i + batch]) for i in range(0, len(crops), batch)])

    def _classify_as_is(self, crops: np.ndarray, turns: int) -> np.ndarray:
        s = self.settings
        if getattr(self, "classifiers", 1) > 1:  # a group of classifiers (vision.onnx.ClassifierGroup)
            return self.classifier(crops, turns=turns, members=s.cls_members, first=s.cls_first,
                                   unsure=s.cls_unsure)
        return self.classifier(crops, turns=turns)

    def classifier_probs(self, img: np.ndarray, boxes, crops: np.ndarray,
                         degrees: np.ndarray | None = None) -> np.ndarray:
        """The classifier's probabilities for the indices ``boxes`` (``crops``: them cut at the
        training margin), read at ``cls_turns`` turns (or, for a classifier of upright crops,
        turned upright by the way-up reader's angles, ``degrees`` where already asked, and read
        once) and at each of ``cls_margins`` (and, with ``cls_shift``, cut off centre four ways;
        with ``cls_tilts``, cut from the photo turned), averaged."""
        return self._margin_probs(img, boxes, crops, degrees)[0]

    def _margin_probs(self, img: np.ndarray, boxes, crops: np.ndarray,
                      degrees: np.ndarray | None) -> tuple[np.ndarray, np.ndarray | None]:
        """:meth:`classifier_probs`'s probabilities, and those of its look at the training
        margin (``crops``) alone (:meth:`top_prob`'s one framing), or None where
        ``cls_margins`` has no such look."""
        size = self.classifier.size
        looks = [crops if m == MARGIN else crop_squares(img, boxes, size, m) for m in self.settings.cls_margins]
        looks += [crop_squares(img, moved, size) for moved in shifted_boxes(boxes, self.settings.cls_shift)]
        tilted = [crop_squares(img, boxes, size, degrees=a) for a in self.settings.cls_tilts]
        if self.classifier.upright:  # each look's ways: those of the looks cut turned asked afresh
            degrees = self.way_up.degrees(crops) if degrees is None else degrees
            degrees = np.concatenate([np.tile(degrees, len(looks)), *(self.way_up.degrees(t) for t in tilted)])
        looks += tilted
        at = self.settings.cls_margins.index(MARGIN) if MARGIN in self.settings.cls_margins else None
        if len(looks) == 1:
            probs = self._classify(looks[0], degrees)
            return probs, (probs if at is not None else None)
        per_look = self._classify(np.concatenate(looks), degrees).reshape(len(looks), len(boxes), -1)
        return per_look.mean(0), (per_look[at] if at is not None else None)

    def suit_crops(self, net: IndexClassifier, img: np.ndarray, boxes) -> list[np.ndarray]:
        """Suit reader ``net``'s crops of the indices ``boxes`` in ``img``: one stack (N, S, S, C)
        per margin of ``settings.suit_margins``, cut at its side."""
        return [crop_squares(img, boxes, net.size, m) for m in self.settings.suit_margins]

    def suit_probs(self, net: IndexClassifier, crops, small: np.ndarray,
                   degrees: np.ndarray | None = None) -> np.ndarray:
        """A suit reader's probabilities for indices cut at its side (``crops``: a stack, or a
        list of stacks of the same indices cut at several margins, :meth:`suit_crops`), read at
        ``cls_turns`` turns; or, for a reader of upright crops (``net.upright``), turned upright
        by the way the way-up reader reads them to face (``degrees``, where already asked; else
        from ``small``, the classifier's crops of the same indices), at each of ``suit_tilts``
        off that, and read once each, as it learnt them (``models/suit.py --upright``). The
        looks' probabilities are averaged."""
        looks = crops if isinstance(crops, list) else [crops]
        if not net.upright:
            return np.mean([net(c, turns=self.settings.cls_turns) for c in looks], 0)
        if degrees is None:
            degrees = self.way_up.degrees(small)
        views = [self.suit_view(net, c, small, degrees, tilt) for c in looks for tilt in self.settings.suit_tilts]
        return net(np.concatenate(views), turns=1).reshape(len(views), len(small), -1).mean(0)

    def suit_view(self, net: IndexClassifier, crops: np.ndarray, small: np.ndarray,
                  degrees: np.ndarray | None = None, tilt: float = 0.0) -> np.ndarray:
        """The crops as suit reader ``net`` sees them (:meth:`suit_probs`): turned upright by
        the way-up reader's angle (``tilt`` degrees more) for a reader of upright crops, else
        as they are."""
        if not net.upright:
            return crops
        degrees = self.way_up.degrees(small) if degrees is None else degrees
        return turn_upright(crops, np.asarray(degrees, np.float32) + tilt)

    def _asks_way_up(self) -> bool:
        return self.way_up is not None and self.settings.way_up_apart > 0

    def _with_way_up(self, reads: list[IndexRead], ups_of) -> list[IndexRead]:
        """``reads`` with the way each faces, for those with another of their code between
        ``way_up_apart`` and ``far_apart`` index sizes away: only such pairs are asked which
        way they face (:func:`_one_card`), also when read again, since an index is read again
        as its twin together with others of its code. ``ups_of(positions in reads)`` gives
        their ways (:class:`WayAnswers`: the way-up reader asked once an index)."""
        s = self.settings
        ask = [i for i, r in enumerate(reads)
               if any(o is not r and o.card == r.card and s.way_up_apart <= _apart(r, o) <= s.far_apart for o in reads)]
        if not ask:
            return reads
        ups = ups_of(ask)
        reads = list(reads)
        for i, up in zip(ask, ups, strict=True):
            reads[i] = replace(reads[i], up=up)
        return reads

    def suit_says(self, grey: bool = False) -> list[SuitSay]:
        """The suit readers that have their say on a photo's indices, in order. ``grey``: a
        photo with no colour, read by the grey-photo suit reader where this folder has one (and
        then by the black one only with ``grey_then_black``)."""
        s = self.settings
        grey = grey and self.grey_suit is not None
        says = [SuitSay(self.grey_suit, "SHDC", s.grey_suit_rule)] if grey else []
        if not grey or s.grey_then_black:
            says += [SuitSay(net, "SC", s.suit_rule, s.suit_weight) for net in (self.suit, self.suit_up)]
        return [say for say in says if say.net is not None]

    def first_look(self, img: np.ndarray) -> tuple | None:
        """The detector's answer (boxes, scores, rows) on ``img`` as it is at ``det_scales``, as
        this thread's last read of ``img`` asked it; None if it has not."""
        return self._first_look_of(img)[0]

    def _first_look_of(self, img: np.ndarray) -> tuple[tuple | None, WayAnswers | None]:
        """:meth:`first_look`'s answer, and the way-up reader's answers on the crops of its
        boxes (None where not asked); (None, None) where this thread has not read ``img``."""
        seen = getattr(getattr(self, "_local", None), "first_look", None)
        return (seen[1], seen[2]) if seen is not None and seen[0] is img else (None, None)

    def mirror_odds(self, img: np.ndarray, found: tuple | None, ways: WayAnswers | None = None
                    ) -> tuple[float, float]:
        """How surely the detector's boxes in ``img`` (``found``: boxes, scores, rows, as
        :meth:`first_look` gives them) read as indices as they lie and mirrored: each box's
        crop (turned upright by the way-up reader where the classifier reads so; ``ways``: its
        answers on these crops where already asked), and that crop flipped left-right (a crop
        turned upright and then flipped is the flipped crop turned upright by the mirrored
        angle), read once by the classifier alone at the training margin; the mean over the
        boxes of sqrt(detector score x the likeliest code's probability), as an index's
        confidence is taken, over the boxes that read ``mirror_strong`` or more one way or the
        other (Settings.mirror_strong). (0, 0) for no such boxes."""
        return mirror_means(*self.mirror_confidences(img, found, ways), self.settings.mirror_strong)

    def mirror_confidences(self, img: np.ndarray, found: tuple | None, ways: WayAnswers | None = None
                           ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`mirror_odds`' figures box by box: each box's confidence as it lies and
        mirrored (two empty arrays for no boxes)."""
        if found is None or len(found[0]) == 0:
            return np.zeros(0), np.zeros(0)
        boxes, scores, _ = found
        n = len(boxes)
        if ways is not None and len(ways.crops) == n:
            crops = ways.crops
        else:
            crops, ways = crop_squares(img, boxes, self.classifier.size), None
        if self.classifier.upright:  # one view, at the way-up reader's angle (no cls_up_tilts)
            degrees = ways.degrees(range(n)) if ways is not None else self.way_up.degrees(crops)
            crops = turn_upright(crops, np.asarray(degrees, np.float32))
        crops = np.concatenate([crops, np.ascontiguousarray(crops[:, :, ::-1])])
        top = self._classify_as_is(crops, 1)[:, :NONE_CLASS].max(1)
        conf = np.sqrt(np.tile(np.asarray(scores, np.float64), 2) * top)
        return conf[:n], conf[n:]

    def may_be_mirrored(self, img: np.ndarray, found: tuple | None, ways: WayAnswers | None = None) -> bool:
        """Whether ``img`` may be a mirrored photo, by the detector's boxes in it
        (Settings.mirror_least, mirror_ask): then :meth:`read` reads it flipped too."""
        return asks_mirror(self.mirror_odds(img, found, ways), self.settings.mirror_least, self.settings.mirror_ask)

    def read(self, image, zoom: bool = True, aspect: float | None = None,
             empty_looks: bool = True, mirror: bool = True) -> Reading:
        """Read a photo (path, bytes or BGR array). Raises ``ImageError`` on bad input.

        ``zoom=False`` skips the closer look at a photo that reads nothing (a video stream
        takes it only now and then, so that an empty table does not slow every frame).
        ``empty_looks=False`` skips ``Settings.aspect_when_empty``'s looks at a photo that reads
        nothing (the live video: an empty table would pay them on every frame that takes the
        looks, 1.5x the mean time a frame), and the guess at it (``Settings.empty_min_card``).
        ``aspect``: read the photo at that stretch only (1: as it is, no other look), as an
        earlier read's ``Reading.aspect`` names it; a video stream takes the looks of
        ``Settings.aspects`` on a few frames and reads the others at the aspect they chose
        (vision.video.StableReader). None: the photo as it is and the looks.
        ``mirror=False`` skips ``Settings.mirror_check`` (the live video's frames; a photo
        already flipped); as does a read at a given ``aspect``."""
        t0 = time.perf_counter()
        img = load_image(image)
        s = self.settings
        if aspect is not None:
            if not 0 < aspect < float("inf"):  # NaN too
                raise ValueError(f"aspect must be a stretch above 0, not {aspect!r}")
            look = self._read_stretched(img, aspect, zoom)
            return Reading(tuple(look.cards), (time.perf_counter() - t0) * 1000, img.shape[1], img.shape[0],
                           tuple(look.reported), float(aspect))
        local = getattr(self, "_local", None)
        if local is not None:  # the photo whose first look Reader.first_look keeps
            local.watch, local.first_look = img, None
        cards, reported, aspect = self._read_photo(img, zoom, empty_looks)
        mirrored = False
        if mirror and s.mirror_check and self.may_be_mirrored(img, *self._first_look_of(img)):
            width = img.shape[1]
            f_cards, f_reported, f_aspect = self._read_photo(np.ascontiguousarray(img[:, ::-1]), zoom, empty_looks)
            if sum(c.confidence for c in f_cards) > sum(c.confidence for c in cards) + s.mirror_gain:
                mirrored, aspect = True, f_aspect
                cards = [replace(c, boxes=tuple(mirrored_box(b, width) for b in c.boxes)) for c in f_cards]
                reported = [mirrored_index(ix, width) for ix in f_reported]
        if not cards and empty_looks and s.empty_min_card > 0:
            cards, reported, aspect = self.guess(img, zoom)
        ms = (time.perf_counter() - t0) * 1000
        return Reading(tuple(cards), ms, img.shape[1], img.shape[0], tuple(reported), aspect, mirrored)

    def guess(self, img: np.ndarray, zoom: bool = True) -> tuple[list[CardRead], list[IndexRead], float]:
        """The surest card in ``img`` read with the bars lowered (Settings.empty_min_card,
        empty_det_conf; the looks as :meth:`read` takes them), flagged uncertain, with its
        indices as reported and the aspect it was read at; none where even so none reads."""
        cards, reported, aspect = self._guesser()._read_photo(img, zoom, True)
        if not cards:
            return [], [], 1.0
        best = max(cards, key=lambda c: c.confidence)
        return ([replace(best, uncertain=True)], [r for r in reported if r.box in best.boxes], aspect)

    def _guesser(self) -> Reader:
        """This reader with the bars of :meth:`guess` (its networks shared, not loaded again)."""
        s = self.settings
        low = replace(s, det_conf=min(s.det_conf, s.empty_det_conf), min_card=min(s.min_card, s.empty_min_card),
                      min_index=min(s.min_index, s.empty_min_card), empty_min_card=0.0)
        view = getattr(self, "_guess_view", None)
        if view is None or view.settings != low:
            view = copy.copy(self)
            view.settings = low
            self._guess_view = view
        return view

    def _read_photo(self, img: np.ndarray, zoom: bool, empty_looks: bool
                    ) -> tuple[list[CardRead], list[IndexRead], float]:
        """:meth:`read`'s reading of ``img`` as it lies, with the looks: its cards, their
        indices as reported, and the aspect kept."""
        s = self.settings
        indices, cards, reported = self._read_cards(img, zoom)
        aspect = 1.0
        probing = s.aspect_probe > -1
        may_stretch = img.shape[0] == img.shape[1] or not s.aspect_squares_only
        # with nothing read there is nothing to probe: each look is read (aspect_when_empty) or none
        if s.aspects and may_stretch and (indices or not probing or (empty_looks and s.aspect_when_empty != "off")):
            if not indices and probing:  # here only by aspect_when_empty
                probing, zoom = False, zoom and s.aspect_when_empty == "zoomed"
            best = aspect_score(cards, s.aspect_score)
            here = self.here_prob(img, indices) if probing else None  # the photo as it is: once for every aspect
            looks = [indices]
            for factor in s.aspects:
                wide = stretch(img, factor)
                if probing and self.aspect_probe(img, wide, indices, here) <= s.aspect_probe:
                    continue
                look = self._read_stretched(img, factor, zoom, wide)
                looks.append(look.indices)
                score = aspect_score(look.cards, s.aspect_score)
                if score > best + s.aspect_gain:
                    best, aspect, (indices, cards, reported) = score, factor, look
            if s.aspect_merge == "indices" and len(looks) > 1:
                indices = merge_looks(looks, s.aspect_merge_iou)
                cards, reported = self._cards(img, indices)
        return cards, reported, aspect

    def _read_stretched(self, img: np.ndarray, factor: float, zoom: bool,
                        wide: np.ndarray | None = None) -> Look:
        """The look at ``img`` stretched by ``factor`` (vision.image.stretch; ``wide``, where
        already made), its boxes in ``img``'s own pixels."""
        if factor == 1:
            return self._read_cards(img, zoom)
        wide = stretch(img, factor) if wide is None else wide
        look = self._read_cards(wide, zoom)
        scale = stretch_scale(img, wide)
        return Look([unstretch_index(r, scale) for r in look.indices],
                    [replace(c, boxes=tuple(unstretch_box(b, scale) for b in c.boxes)) for c in look.cards],
                    [unstretch_index(r, scale) for r in look.reported])

    def aspect_probe(self, img: np.ndarray, wide: np.ndarray, indices: list[IndexRead],
                     here: float | None = None) -> float:
        """How much surer the classifier alone is of ``indices`` (read in ``img``) cut from
        ``wide`` (``img`` stretched, vision.image.stretch) than cut from ``img`` itself: the
        difference of the means of their top card probabilities (Settings.aspect_probe).
        ``here``: :meth:`top_prob` of ``img``, where already known."""
        here = self.top_prob(img, indices) if here is None else here
        return float(self.top_prob(wide, indices, stretch_scale(img, wide)) - here)

    def here_prob(self, img: np.ndarray, indices: list[IndexRead]) -> float:
        """:meth:`top_prob` of ``indices`` in ``img``, the photo they were read in: from each
        index's own ``top`` (kept by the first read) where all have one, the classifier not
        asked again; else asked."""
        tops = [r.top for r in indices]
        if not indices or any(t is None for t in tops):
            return self.top_prob(img, indices)
        return np.array(tops, np.float32).mean()

    def top_prob(self, img: np.ndarray, indices: list[IndexRead], scale: tuple[float, float] = (1.0, 1.0)) -> float:
        """The mean of the classifier's top card probability for ``indices`` cut from ``img``
        (one framing), their boxes scaled by ``scale`` (stretch_scale) to lie in it."""
        sx, sy = scale
        boxes = np.array([r.box for r in indices], np.float32).reshape(-1, 4) * np.float32([sx, sy, sx, sy])
        return self._classify(crop_squares(img, boxes, self.classifier.size))[:, :NONE_CLASS].max(1).mean()

    def _read_cards(self, img: np.ndarray, zoom: bool) -> Look:
        """The indices read in ``img`` and the cards they make."""
        indices = self.read_indices(img, zoom)
        return Look(indices, *self._cards(img, indices))

    def _cards(self, img: np.ndarray, indices: list[IndexRead]) -> tuple[list[CardRead], list[IndexRead]]:
        """The cards ``indices`` (read in ``img``) make, and the indices as those cards report
        them (:func:`reported_indices`, from the same grouping)."""
        cards, again = _group(indices, self.settings)
        if self.settings.pip_suit > 0 and self.pips is not None and self.way_up is not None and cards:
            cards = self.check_pips(img, cards)
        return cards, _as_reported(indices, again)


def _remember_first_look(reader: Reader, img: np.ndarray, found: tuple, ways: WayAnswers | None) -> None:
    """Keep the detector's answer on ``img`` as it is at ``det_scales`` (Reader.first_look),
    and the way-up reader's answers on its boxes' crops, for this thread; the photo itself is
    kept with them, so that it is known again by identity."""
    local = getattr(reader, "_local", None)
    if local is not None and getattr(local, "watch", None) is img and getattr(local, "first_look", None) is None:
        local.first_look = (img, found, ways)


def mirror_means(as_is: np.ndarray, mirrored: np.ndarray, strong: float = 0.0) -> tuple[float, float]:
    """The means of boxes' confidences as they lie and mirrored (:meth:`Reader.mirror_odds`)
    over the boxes whose larger one is ``strong`` or more; (0, 0) for none."""
    as_is, mirrored = np.asarray(as_is, np.float64), np.asarray(mirrored, np.float64)
    keep = np.maximum(as_is, mirrored) >= strong
    if not keep.any():
        return 0.0, 0.0
    return float(as_is[keep].mean()), float(mirrored[keep].mean())


def asks_mirror(odds: tuple[float, float], least: float, ask: float) -> bool:
    """Whether odds (as they lie, mirrored: :meth:`Reader.mirror_odds`) ask for the photo to be
    read flipped too: mirrored ``least`` or more and within ``ask`` of as they lie."""
    as_is, mirrored = odds
    return mirrored >= least and mirrored > as_is - ask


def mirrored_box(box, width: int) -> tuple[float, float, float, float]:
    """``box`` (x1 y1 x2 y2) where it lies in its photo, ``width`` pixels wide, flipped left-right."""
    x1, y1, x2, y2 = (float(v) for v in box)
    return width - x2, y1, width - x1, y2


def mirrored_index(read: IndexRead, width: int) -> IndexRead:
    """An index read in a photo flipped left-right, where it lies in the photo as given: its box
    and the way it faces flipped back (its grey patch is left as it was read)."""
    up = None if read.up is None else np.array([-read.up[0], read.up[1]], np.float32)
    return replace(read, box=mirrored_box(read.box, width), up=up)


def shifted_boxes(boxes, share: float) -> list[np.ndarray]:
    """``boxes`` (N, 4) moved ``share`` of each one's longer side left, right, up and down: four
    stacks (none when ``share`` is 0), for reading each index off centre (``Settings.cls_shift``)."""
    if share <= 0:
        return []
    b = np.asarray(boxes, np.float32).reshape(-1, 4)
    step = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]) * share
    out = []
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        move = np.stack([dx * step, dy * step, dx * step, dy * step], axis=1)
        out.append(b + move)
    return out


def merge_looks(looks: list[list[IndexRead]], overlap: float) -> list[IndexRead]:
    """The indices of several looks at one photo (each in the photo's own pixels) pooled: the
    surest first, and an index left out where it overlaps one kept by ``overlap`` (IoU) or more
    (Settings.aspect_merge "indices")."""
    kept: list[IndexRead] = []
    for r in sorted((r for look in looks for r in look), key=lambda r: -r.confidence):
        if all(iou(r.box, k.box) < overlap for k in kept):
            kept.append(r)
    return kept


def aspect_score(cards: list[CardRead], how: str) -> float:
    """How well a photo read at one aspect (Settings.aspects): the sum or the mean of its cards'
    confidences (0 with no card)."""
    if not cards:
        return 0.0
    total = float(sum(c.confidence for c in cards))
    return total if how == "sum" else total / len(cards)


def stretch_scale(img: np.ndarray, wide: np.ndarray) -> tuple[float, float]:
    """How much ``wide`` (``img`` stretched, vision.image.stretch) scales x and y: its sides over
    ``img``'s, exactly (1139 / 640 for a 640-pixel square widened 1.78x, not 1.78)."""
    return wide.shape[1] / img.shape[1], wide.shape[0] / img.shape[0]


def unstretch_box(box, scale: tuple[float, float]) -> tuple[float, float, float, float]:
    """A box found in a stretched photo, in the photo's own pixels (``scale``: stretch_scale)."""
    sx, sy = scale
    x1, y1, x2, y2 = box
    return (x1 / sx, y1 / sy, x2 / sx, y2 / sy)


def unstretch_index(read: IndexRead, scale: tuple[float, float]) -> IndexRead:
    """An index read in a stretched photo, its box (and the way it faces) in the photo's own
    pixels (``scale``: stretch_scale)."""
    up = read.up
    if up is not None:
        up = np.asarray(up, np.float32) / np.float32(scale)
        up = up / max(float(np.linalg.norm(up)), 1e-9)
    return replace(read, box=unstretch_box(read.box, scale), up=up)


class WayAnswers:
    """The way-up reader's answers about one photo's indices (``crops``, the classifier's), each
    index asked at most once: the upright suit reader and the pairing of indices both ask."""

    def __init__(self, net: WayUpReader, crops: np.ndarray) -> None:
        self.net, self.crops = net, crops
        self.known: dict[int, np.ndarray] = {}

    def _cos_sin(self, rows) -> np.ndarray:
        rows = [int(r) for r in rows]
        new = [r for r in dict.fromkeys(rows) if r not in self.known]
        if new:
            self.known.update(zip(new, self.net.cos_sin(self.crops[new]), strict=True))
        return np.array([self.known[r] for r in rows], np.float32).reshape(-1, 2)

    def degrees(self, rows) -> np.ndarray:
        """The indices of ``rows``: degrees anticlockwise from the crop's up (WayUpReader.degrees)."""
        return WayUpReader.angles(self._cos_sin(rows))

    def vectors(self, rows) -> np.ndarray:
        """The indices of ``rows``: the way each faces in the image, unit (x, y) (WayUpReader())."""
        return WayUpReader.vectors(self._cos_sin(rows))


def _numbered(folder: Path, stem: str) -> list[Path]:
    """A weights folder's more networks of one kind beside ``{stem}.onnx``: ``{stem}2.onnx``,
    ``{stem}3.onnx``, ... up to the first number missing (Settings.det_members, cls_members)."""
    paths: list[Path] = []
    while (path := folder / f"{stem}{len(paths) + 2}.onnx").exists():
        paths.append(path)
    return paths


def load_suit_reader(folder: Path, settings: Settings, threads: int = 2, name: str = "suit") -> IndexClassifier | None:
    """A weights folder's suit reader (``suit.onnx``; ``name`` "suit4": the grey-photo one,
    ``suit4.onnx``; "suit_up": a second black suit reader, asked after the first, e.g. one of
    upright crops); None where it has none or its settings turn it off."""
    path = folder / f"{name}.onnx"
    on = settings.grey_suit_reader if name == "suit4" else settings.suit_reader
    return IndexClassifier(path, threads=threads) if on and path.exists() else None


def _size(box) -> float:
    return max(box[2] - box[0], box[3] - box[1], 1.0)


def median_side(reads: list[IndexRead]) -> float:
    """The median side of the indices read, in pixels (Settings.small_side; 0 when none)."""
    return float(np.median([_size(r.box) for r in reads])) if reads else 0.0


def takes_small_look(reads: list[IndexRead], s: Settings) -> bool:
    """Whether a photo whose first looks read ``reads`` is read again with ``s.small_scales`` too:
    it read indices, and their median side is under ``s.small_side`` (0: never)."""
    return bool(reads) and s.small_side > 0 and bool(s.small_scales) and median_side(reads) < s.small_side


def _centre(box) -> np.ndarray:
    return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])


def card_frame(box_a, up_a, box_b, up_b) -> tuple[float, float, float]:
    """How index ``b`` lies from index ``a`` in ``a``'s frame: the cosine between the ways they
    face (``up_a``, ``up_b``: unit (x, y) in the image, the way-up reader's), and how far ``b``'s
    centre lies below ``a``'s (``along``: against ``a``'s way up) and to its right (``across``),
    in index sizes (the larger box's). One card's two indices face opposite ways, each below and
    to the right of the other (a card's corners, read from either index): the same figures
    from either end."""
    d = (_centre(box_b) - _centre(box_a)) / max(_size(box_a), _size(box_b))
    u = np.asarray(up_a, np.float64)
    right = np.array([-u[1], u[0]])  # the way an upright index's text runs
    return float(np.dot(u, np.asarray(up_b, np.float64))), float(np.dot(d, -u)), float(np.dot(d, right))


def _lie_as_one_card(a: IndexRead, b: IndexRead, settings: Settings) -> bool:
    """Whether ``a`` and ``b`` (each with its way up) lie as one card's two indices lie, from
    either end (Settings.pair_cos, pair_along, pair_across)."""
    s = settings
    for one, other in ((a, b), (b, a)):
        cos, along, across = card_frame(one.box, one.up, other.box, other.up)
        if not (cos <= s.pair_cos and s.pair_along[0] <= along <= s.pair_along[1]
                and s.pair_across[0] <= across <= s.pair_across[1]):
            return False
    return True


def pair_odds(pa: np.ndarray, pb: np.ndarray) -> tuple[int, float, np.ndarray]:
    """Two indices' probabilities (53 each) multiplied over the 52 codes ("no index" ruled out:
    both are indices) and normalised: the likeliest code's class, its share, and all 52 shares
    (a share of 0 where the two give no code any probability)."""
    both = pa[:NONE_CLASS].astype(np.float64) * pb[:NONE_CLASS]
    total = float(both.sum())
    k = int(both.argmax())
    if total <= 0:
        return k, 0.0, both
    return k, float(both[k]) / total, both / total


def _detector_score(ix: IndexRead) -> float:
    """The detector's score behind an index read (its confidence is sqrt(score x probability))."""
    return ix.confidence ** 2 / max(float(ix.probs[CODES.index(ix.card)]), 1e-9)


def read_as_pairs(reads: list[IndexRead], settings: Settings = Settings()) -> list[IndexRead]:
    """``reads`` (each with its way up, ``up``) with each two read as two codes that lie as one
    card's two indices lie read as one card (Settings.pair_share): both given the code their
    probabilities multiplied find likeliest, those probabilities (normalised) and each its
    confidence with that code's share in place of its own probability (``paired_share``: a card
    read so with a share under ``uncertain_below`` is flagged uncertain). The surest such pairs
    first; an index is read with at most one other, and not with one at all when it already
    lies so with an index of its own code (its card has its two indices). An index weaker than
    ``min_index`` (there only with ``pair_weak``) is read so with one of its own code too."""
    s = settings
    if s.pair_share <= 0 or len(reads) < 2:
        return reads
    lie = {}

    def lies(i: int, j: int) -> bool:
        if (i, j) not in lie:
            lie[i, j] = lie[j, i] = _lie_as_one_card(reads[i], reads[j], s)
        return lie[i, j]

    n = len(reads)
    weak = [r.confidence < s.min_index for r in reads]  # kept only to be read with another (pair_weak)
    paired = {i for i in range(n) for j in range(n)
              if i != j and not weak[i] and not weak[j] and reads[i].card == reads[j].card
              and _apart(reads[i], reads[j]) <= s.far_apart and lies(i, j)}
    found = []
    for i in range(n):
        for j in range(i + 1, n):
            a, b = reads[i], reads[j]
            same = a.card == b.card and not (weak[i] or weak[j])
            if same or i in paired or j in paired or _apart(a, b) > s.far_apart:
                continue
            k, share, both = pair_odds(a.probs, b.probs)
            # the odds first, the geometry (dearer) only for the few pairs that pass them
            if share >= s.pair_share and min(float(a.probs[k]), float(b.probs[k])) >= s.pair_each and lies(i, j):
                found.append((share, i, j, k, both))
    out, used = list(reads), set()
    for share, i, j, k, both in sorted(found, key=lambda f: -f[0]):
        if i in used or j in used:
            continue
        used |= {i, j}
        probs = np.append(both, 0.0).astype(np.float32)  # "no index" ruled out: both are indices
        for m in (i, j):
            r = reads[m]
            score = min(_detector_score(r), 1.0)
            out[m] = replace(r, card=CODES[k], confidence=float(np.sqrt(score * share)), probs=probs,
                             paired_share=share)
    return out


def group_indices(indices: list[IndexRead], settings: Settings = Settings()) -> list[CardRead]:
    """One card per code: its indices' boxes, a combined confidence, and a flag when unsure.

    With ``settings.one_deck``, the indices left over because their code's card lies far away
    are read again (:func:`read_again`) and make cards of their own, flagged uncertain.
    """
    return _group(indices, settings)[0]


def reported_indices(indices: list[IndexRead], settings: Settings = Settings()) -> list[IndexRead]:
    """``indices`` as :func:`group_indices` makes cards of them: an index the one-deck rule read
    again as its suit twin (:func:`read_again`) carries that code, as its card does. The others,
    those it dropped too, keep the code the classifier read (``Reading.indices``, whose codes
    ``ginsight eval``'s index figures and confusions count)."""
    return _as_reported(indices, _group(indices, settings)[1])


def _as_reported(indices: list[IndexRead], again: dict[int, IndexRead]) -> list[IndexRead]:
    return [again.get(id(ix), ix) for ix in indices] if again else list(indices)


def _group(indices: list[IndexRead], settings: Settings) -> tuple[list[CardRead], dict[int, IndexRead]]:
    """:func:`group_indices`'s cards, and the indices read again, by ``id`` of the index read."""
    cards, far = _one_card_per_code(indices, settings)
    again: dict[int, IndexRead] = {}
    if settings.one_deck and far:
        taken = {c.card for c in cards}
        for ix in far:
            r = read_again(ix, taken, settings)
            if r is not None:
                again[id(ix)] = r
        more, _ = _one_card_per_code(list(again.values()), settings)  # far apart again: dropped
        cards += [replace(c, uncertain=True) for c in more]
    cards.sort(key=lambda c: CODES.index(c.card))  # deck order
    return cards, again


def index_read(box: tuple[float, float, float, float], score: float, p: np.ndarray,
               settings: Settings = Settings(), patch: np.ndarray | None = None,
               up: np.ndarray | None = None, least: float | None = None,
               top: float | None = None) -> IndexRead | None:
    """One index: the classifier's likeliest class, its confidence sqrt(detector score x
    probability); None when that is "no index" or the confidence is under ``min_index`` (or
    ``least``, where given: a weak read kept to be read with its card's other index). ``top``:
    kept as the read's ``top`` (IndexRead)."""
    k = int(p.argmax())
    if k == NONE_CLASS:
        return None
    conf = float(np.sqrt(score * p[k]))
    if conf < (settings.min_index if least is None else least):
        return None
    return IndexRead(box, CODES[k], conf, p, patch, up, top=top)


def suit_twin(code: str) -> str:
    """The same rank in the other suit of its colour: spades and clubs, hearts and diamonds."""
    return code[:-1] + {"S": "C", "C": "S", "H": "D", "D": "H"}[code[-1]]


def read_again(ix: IndexRead, taken: set[str], settings: Settings = Settings()) -> IndexRead | None:
    """``ix`` read as a code not in ``taken`` (the photo's other cards; one deck holds each card
    once): the classifier's probabilities given that it is none of those, the likeliest kept
    (by ``settings.one_deck_rule`` "suit": only its suit twin may be kept, :func:`suit_twin`).
    None when "no index" is then the likeliest, or the confidence falls under ``min_index``.
    The detector's score is taken back out of the confidence (confidence = sqrt(score x p))."""
    p = ix.probs.astype(np.float64)  # a copy
    p_read = float(p[CODES.index(ix.card)])
    if p_read <= 0:
        return None
    score = _detector_score(ix)
    for code in taken | {ix.card}:
        p[CODES.index(code)] = 0.0
    if p.sum() <= 0:
        return None
    p /= p.sum()
    if settings.one_deck_rule == "suit":
        twin = CODES.index(suit_twin(ix.card))
        if p[twin] <= 0 or p[NONE_CLASS] > p[twin]:  # taken already, or "no index" likelier
            return None
        only = np.zeros_like(p)
        # read as the twin, with its share of what is left, or (twin_rank) of its rank and colour
        rank_colour = min(p_read + float(ix.probs[twin]), 1.0)
        sure = settings.twin_rank > 0 and rank_colour >= settings.twin_rank
        only[twin] = rank_colour if sure else p[twin]
        p = only
    return index_read(ix.box, min(score, 1.0), p, settings, ix.patch, ix.up)


def _one_card(best: IndexRead, ix: IndexRead, settings: Settings) -> bool:
    """Whether ``ix`` may be the other index of ``best``'s card (both read as one code): within
    ``far_apart`` index sizes of it, and, from ``way_up_apart`` or ``same_turn_apart`` sizes on,
    not facing the same way (Settings.way_up_apart, same_turn_apart)."""
    apart = _apart(best, ix)
    if apart > settings.far_apart:
        return False
    if (settings.way_up_apart > 0 and apart >= settings.way_up_apart
            and best.up is not None and ix.up is not None):
        return not same_way_up(best, ix, settings)
    if (settings.same_turn_apart > 0 and apart >= settings.same_turn_apart
            and best.patch is not None and ix.patch is not None):
        return half_turn_likeness(best.patch, ix.patch) <= settings.same_turn_margin
    return True


def _apart(a: IndexRead, b: IndexRead) -> float:
    """How far apart two indices lie, in sizes of the larger."""
    return float(np.linalg.norm(_centre(a.box) - _centre(b.box)) / max(_size(a.box), _size(b.box)))


def same_way_up(a: IndexRead, b: IndexRead, settings: Settings = Settings()) -> bool:
    """Whether indices ``a`` and ``b`` face one way (within ``settings.way_up_same``) and, with
    ``way_up_along``, lie along it: then they are two cards, not one card's two indices."""
    if float(np.dot(a.up, b.up)) < settings.way_up_same:
        return False
    if settings.way_up_along <= 0:
        return True
    line = _centre(b.box) - _centre(a.box)
    length = float(np.linalg.norm(line))
    if length == 0:
        return False
    way = (a.up + b.up) / max(float(np.linalg.norm(a.up + b.up)), 1e-9)
    return abs(float(np.dot(line / length, way))) >= settings.way_up_along


def _one_card_per_code(indices: list[IndexRead], settings: Settings) -> tuple[list[CardRead], list[IndexRead]]:
    """The cards (not yet in deck order), and the indices far from their code's reported card."""
    left_over: list[IndexRead] = []
    by_code: dict[str, list[IndexRead]] = {}
    for ix in indices:
        by_code.setdefault(ix.card, []).append(ix)
    cards = []
    for code, group in by_code.items():
        retried = False
        while group:
            group.sort(key=lambda ix: -ix.confidence)  # strongest first, each try (card_indices reorders)
            card, near, group = _code_card(code, group, settings)
            rest = [ix for ix in group if not any(ix is n for n in near)]
            if card is not None:
                # a card found after a stronger index of its code made too weak a card is
                # flagged: that index was read as this code too
                cards.append(replace(card, uncertain=True) if retried else card)
                left_over += rest
                break
            # Too weak a card. With ``weak_code_retry`` the indices of this code lying away
            # from it are tried next, as a card of their own; else they are dropped with it.
            if not settings.weak_code_retry:
                break
            group, retried = rest, True
    return cards, left_over


def _code_card(code: str, group: list[IndexRead], settings: Settings
               ) -> tuple[CardRead | None, list[IndexRead], list[IndexRead]]:
    """The card of ``code`` made from its strongest index in ``group`` (sorted strongest
    first) and those near it (None when under ``min_card``), those indices, and ``group``
    less the indices dropped as one index boxed twice."""
    best = group[0]
    # Indices of one card lie within about a card's diagonal of each other.
    near = [ix for ix in group if ix is best or _one_card(best, ix, settings)]
    if settings.same_index_iou > 0 and len(near) > 1:
        once: list[IndexRead] = []
        for ix in near:  # strongest first
            if all(iou(ix.box, k.box) < settings.same_index_iou for k in once):
                once.append(ix)
        if len(once) < len(near):  # the twice-boxed dropped from the card and the code
            group = [ix for ix in group if not any(ix is n for n in near) or any(ix is k for k in once)]
            near = once
    if settings.card_indices and len(near) > settings.card_indices:
        # A card shows at most two indices: the weaker ones near it are other cards of its
        # code misread (left over, to be read again), unless they lie on a kept one (the
        # same index boxed twice, dropped).
        kept = near[:settings.card_indices]
        extra = [ix for ix in near[settings.card_indices:] if all(iou(ix.box, k.box) < 0.3 for k in kept)]
        group = [ix for ix in group if not any(ix is n for n in near)] + kept + extra
        near = kept
    far = len(near) < len(group)
    miss = 1.0
    for ix in near[:2]:
        miss *= 1 - ix.confidence
    confidence = 1 - miss
    if confidence < settings.min_card:
        return None, near, group
    # a card whose two indices read two codes, read as one of them: flagged unless the two
    # together are sure of it (read_as_pairs)
    split = any(ix.paired_share is not None and ix.paired_share < settings.uncertain_below for ix in near)
    uncertain = far or split or confidence < settings.uncertain_below
    return CardRead(code, confidence, tuple(ix.box for ix in near), uncertain), near, group
