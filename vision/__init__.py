"""Reading cards from photos and video frames.

>>> from vision import Reader                     # doctest: +SKIP
>>> Reader().read("hand.jpg").codes()             # doctest: +SKIP
['AS', '2S', ...]

The engine never imports this package; it hands the engine plain card codes.
"""

from vision.draw import annotate
from vision.image import load_image
from vision.reader import Reader
from vision.settings import Settings
from vision.types import CardRead, ImageError, IndexRead, Reading, WeightsError
from vision.video import StableReader

__all__ = ["CardRead", "ImageError", "IndexRead", "Reader", "Reading", "Settings", "StableReader", "WeightsError",
           "annotate", "load_image"]
