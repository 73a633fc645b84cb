"""The training data: deck artwork (fetched from free-software packages, or drawn procedurally),
synthetic YOLO-labelled photos of cards for the index detector, and index crops for the card,
suit and way-up readers (see ``datasets/SOURCES.md``).

Nothing at run time depends on this package.
"""
