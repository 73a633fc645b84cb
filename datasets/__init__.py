"""The generator of synthetic, YOLO-labelled photos of cards (issue 4; not built yet).

Nothing at run time depends on this package.
"""
