"""Reading cards from photos and video frames with the card detector.

Not built yet (issue 4): this layer will turn detector output into :mod:`engine` cards at
its edge. The engine never imports it.
"""
